import KeyedArchive

/// The typed JSON form of `Tests/interop/decode_check.py`, which keeps booleans, integers and
/// reals apart so a reader that turns `true` into `1` or `0.0` into `0` is caught.
enum TypedJSON {
    static func of(_ value: ArchiveValue, in graph: ObjectGraph) -> JSONValue {
        switch value {
        case .null: return .null
        case .bool(let flag): return .object([("bool", .bool(flag))])
        case .integer(let number): return .object([("int", .integer(number))])
        case .unsignedInteger(let number): return .object([("int", .unsignedInteger(number))])
        case .real(let number): return .object([("real", .real(number))])
        case .string(let text): return .object([("str", .string(text))])
        case .data(let bytes): return .object([("data", .string(Base64.encode(bytes)))])
        case .inlineArray(let items): return .object([("array", .array(items.map { of($0, in: graph) }))])
        case .object(let ref): return of(graph[ref], in: graph)
        }
    }

    private static func of(_ object: ArchivedObject, in graph: ObjectGraph) -> JSONValue {
        switch object {
        case .string(let text, _): return .object([("str", .string(text))])
        case .data(let bytes, _): return .object([("data", .string(Base64.encode(bytes)))])
        case .date(let seconds): return .object([("date", .real(seconds))])
        case .array(let items, _), .orderedSet(let items, _, _): return .object([("array", .array(items.map { of($0, in: graph) }))])
        case .set(let items, _): return .object([("set", .array(items.map { of($0, in: graph) }))])
        case .dictionary(let pairs, _):
            return .object([("dict", .array(pairs.map { .array([of($0.key, in: graph), of($0.value, in: graph)]) }))])
        default: return .object([("unsupported", .string("\(object)"))])
        }
    }
}
