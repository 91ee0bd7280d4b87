/// Expands an `ObjectGraph` into the `top` tree of `nska-json-v1`: a shared object is expanded
/// at every place it occurs, a reference to an object still being expanded (a cycle) becomes
/// `{"$ref": uid}`, and every place a class object is reached is recorded for `shared`.
struct GraphRenderer {
    private let graph: ObjectGraph
    private let limits: DecodingLimits
    private var onPath: Set<Int> = []
    private var reached: [Int: [String]] = [:]
    private var nodes = 0

    init(graph: ObjectGraph, limits: DecodingLimits) {
        self.graph = graph
        self.limits = limits
    }

    /// The `top` object and the `shared` list.
    mutating func render() throws(ArchiveError) -> (top: JSONValue, shared: JSONValue) {
        var top = [(String, JSONValue)]()
        for (key, value) in graph.top { top.append((key, try render(value, path: "/top/" + Self.pointerEscape(key), depth: 0))) }
        return (.object(top), sharedList())
    }

    private func uid(_ ref: ObjectRef) -> Int {
        graph.sourceUIDs.indices.contains(ref.index) ? graph.sourceUIDs[ref.index] : ref.index + 1
    }

    private func sharedList() -> JSONValue {
        let entries = reached.filter { $0.value.count > 1 }.map { ref, paths in
            (uid(ObjectRef(index: ref)), JSONValue.object([
                ("uid", .integer(Int64(uid(ObjectRef(index: ref))))),
                ("class", .string(ClassEncoding.archiveClass(of: graph.objects[ref]).name)),
                ("paths", .array(paths.map(JSONValue.string))),
            ]))
        }
        return .array(entries.sorted { $0.0 < $1.0 }.map(\.1))
    }

    static func pointerEscape(_ key: String) -> String {
        guard key.contains("~") || key.contains("/") else { return key }
        return key.replacing("~", with: "~0").replacing("/", with: "~1")
    }

    mutating func render(_ value: ArchiveValue, path: String, depth: Int) throws(ArchiveError) -> JSONValue {
        nodes += 1
        guard nodes <= limits.maxRenderedNodes else { throw .limit("rendering expands more than \(limits.maxRenderedNodes) nodes") }
        guard depth < limits.maxDepth else { throw .limit("object graph nests deeper than \(limits.maxDepth) at \(path)") }
        switch value {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return .integer(number)
        case .unsignedInteger(let number): return .unsignedInteger(number)
        case .real(let number): return Self.real(number)
        case .string(let text): return .string(text)
        case .data(let bytes): return .object([("$data", .string(Base64.encode(bytes)))])
        case .inlineArray(let items): return .array(try renderItems(items, path: path, depth: depth))
        case .object(let ref):
            guard graph.objects.indices.contains(ref.index) else { throw .invalid("reference to missing object \(ref.index)") }
            reached[ref.index, default: []].append(path)
            if onPath.contains(ref.index) { return .object([("$ref", .integer(Int64(uid(ref))))]) }
            onPath.insert(ref.index)
            defer { onPath.remove(ref.index) }
            return try renderObject(graph.objects[ref.index], path: path, depth: depth)
        }
    }

    static func real(_ number: Double) -> JSONValue {
        if number.isNaN { return .object([("$real", .string("nan"))]) }
        if number.isInfinite { return .object([("$real", .string(number < 0 ? "-inf" : "inf"))]) }
        return .real(number)
    }

    private mutating func renderItems(_ items: [ArchiveValue], path: String, depth: Int) throws(ArchiveError) -> [JSONValue] {
        var out = [JSONValue]()
        out.reserveCapacity(items.count)
        for (index, item) in items.enumerated() { out.append(try render(item, path: path + "/\(index)", depth: depth + 1)) }
        return out
    }

    private mutating func renderObject(_ object: ArchivedObject, path: String, depth: Int) throws(ArchiveError) -> JSONValue {
        switch object {
        case .string(let text, _): return .string(text)
        case .data(let bytes, _): return .object([("$data", .string(Base64.encode(bytes)))])
        case .date(let seconds):
            return .object([("$date", Self.real(seconds)), ("$iso", .string(ReferenceDate(secondsSince2001: seconds).iso8601Microseconds))])
        case .array(let items, _): return .array(try renderItems(items, path: path, depth: depth))
        case .set(let items, _): return .object([("$set", .array(try renderItems(items, path: path + "/$set", depth: depth)))])
        case .orderedSet(let items, _, _):
            return .object([("$orderedSet", .array(try renderItems(items, path: path + "/$orderedSet", depth: depth)))])
        case .countedSet(let elements):
            var out = [JSONValue]()
            for (index, element) in elements.enumerated() {
                out.append(.array([try render(element.element, path: path + "/$countedSet/\(index)/0", depth: depth + 1), .integer(element.count)]))
            }
            return .object([("$countedSet", .array(out))])
        case .dictionary(let pairs, _): return try renderDictionary(pairs, path: path, depth: depth)
        case .null: return .object([("$nsnull", .bool(true))])
        case .uuid(let bytes): return .object([("$uuid", .string(Self.uuidText(bytes)))])
        case .url(let base, let relative):
            let baseJSON = try render(base, path: path + "/$url/base", depth: depth + 1)
            return .object([("$url", .object([("base", baseJSON), ("relative", .string(relative))]))])
        case .generic(let archiveClass, let fields):
            var members = [(String, JSONValue)]()
            for field in fields {
                members.append((field.key, try render(field.value, path: path + "/$fields/" + Self.pointerEscape(field.key), depth: depth + 1)))
            }
            return .object([("$class", .string(archiveClass.name)), ("$classes", .array(archiveClass.chain.map(JSONValue.string))),
                            ("$fields", .object(members))])
        }
    }

    private mutating func renderDictionary(_ pairs: [ArchivePair], path: String, depth: Int) throws(ArchiveError) -> JSONValue {
        let stringKeys = pairs.compactMap { pair -> String? in
            if case .string(let key) = pair.key { return key }
            if case .object(let ref) = pair.key, case .string(let key, _) = graph.objects[ref.index] { return key }
            return nil
        }
        guard stringKeys.count == pairs.count else {
            var out = [JSONValue]()
            for (index, pair) in pairs.enumerated() {
                out.append(.array([try render(pair.key, path: path + "/$dictPairs/\(index)/0", depth: depth + 1),
                                   try render(pair.value, path: path + "/$dictPairs/\(index)/1", depth: depth + 1)]))
            }
            return .object([("$dictPairs", .array(out))])
        }
        var members = [(String, JSONValue)]()
        for (key, pair) in zip(stringKeys, pairs) {
            let jsonKey = key.hasPrefix("$") ? "$" + key : key
            members.append((jsonKey, try render(pair.value, path: path + "/" + Self.pointerEscape(jsonKey), depth: depth + 1)))
        }
        return .object(members)
    }

    static func uuidText(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF")
        var out = ""
        for (index, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(index) { out += "-" }
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return out
    }
}
