// libFuzzer harness for PredicateKit: compiled together with the library sources (see
// run.sh), so it reaches the same code the daemon runs. A crash, a sanitizer report, a
// timeout or a broken print/parse fixed point is a finding.

private let objects: [PredicateValue] = [
    nil, "abc", 42, 2.5, [1, "x", nil], .set(["a"]),
    ["name": "Crème.txt", "size": 10, "tags": ["a", "B"], "d": .date(1), "sub": ["k": "v"], "kMDItemFSName": "a.txt"],
]

private let schema = SQLSchema(table: "items", columns: [
    "kMDItemFSName": .scalar(name: "items.fs_name", type: .text, folded: "items.fs_name_fold"),
    "kMDItemFSSize": .scalar(name: "items.size", type: .integer, folded: nil),
    "kMDItemContentTypeTree": .multiValued(table: "item_types", itemColumn: "item_id", valueColumn: "uti", type: .text),
    "kMDItemTextContent": .fullText(table: "item_text"),
    "name": .scalar(name: "items.name", type: .text, folded: nil),
])

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? Predicate(spotlightQuery: input)
    _ = try? Predicate(query: input)
    _ = try? PredicateJSON.value(fromJSON: input)
    _ = PredicateFolding.fold(input, caseInsensitive: true, diacriticInsensitive: true)
    // With arguments when the input has four specifiers, else plain.
    guard let predicate = (try? Predicate(format: input, arguments: ["name", "x", 1, 2.5])) ?? (try? Predicate(format: input)) else {
        return 0
    }
    checkPrintIsAFixedPoint(predicate, input: input)
    let time = TimeContext(now: 790_171_200)
    for object in objects {
        _ = try? predicate.evaluate(with: object, variables: ["x": 1, "k": "a"], time: time)
    }
    if let compiled = try? predicate.compile(for: schema, time: time), let residual = compiled.residual {
        for object in objects { _ = try? residual.evaluate(with: object, time: time) }
    }
    _ = try? predicate.validate(for: .metadataQuery(attributes: ["kMDItemFSName", "name"]))
    _ = try? predicate.validate(for: .cloudKit(fields: ["name": .string, "tags": .list(.string)]))
    _ = predicate.mapKeyPaths { $0 + "X" }.description
    return 0
}

private func checkPrintIsAFixedPoint(_ predicate: Predicate, input: String) {
    let printed = predicate.description
    guard let reparsed = try? Predicate(format: printed) else {
        fatalError("canonical form does not parse: \(printed) from \(input)")
    }
    guard reparsed.description == printed else {
        fatalError("print is not stable: \(printed) became \(reparsed.description) from \(input)")
    }
}
