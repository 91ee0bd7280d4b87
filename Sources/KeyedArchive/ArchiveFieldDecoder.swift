/// Reads the fields of one object (or the `$top` of an archive) for `ArchiveCoding` types.
/// Every read is typed; a missing key or a value of another type is an error naming the key.
public struct ArchiveFieldDecoder {
    public let graph: ObjectGraph
    private let fields: [String: ArchiveValue]
    private let owner: String
    private let depth: Int

    /// A decoder over the `$top` keys of a decoded archive.
    public init(top graph: ObjectGraph) {
        self.graph = graph
        self.fields = Dictionary(graph.top.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        self.owner = "$top"
        self.depth = 0
    }

    private init(graph: ObjectGraph, fields: [ArchiveField], owner: String, depth: Int) {
        self.graph = graph
        self.fields = Dictionary(fields.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        self.owner = owner
        self.depth = depth
    }

    private func fail(_ key: String, _ problem: String) -> ArchiveError {
        ArchiveError(.unsupportedValue, "\(owner) key '\(key)': \(problem)")
    }

    public func contains(_ key: String) -> Bool { fields[KeyEscaping.stored(key)] != nil }

    /// The raw value of a key (`.null` when absent, as NSCoder returns nil).
    public func decodeValue(forKey key: String) -> ArchiveValue { fields[KeyEscaping.stored(key)] ?? .null }

    public func decodeInteger(forKey key: String) throws(ArchiveError) -> Int64 {
        guard case .integer(let number) = decodeValue(forKey: key) else { throw fail(key, "not an integer") }
        return number
    }

    public func decodeDouble(forKey key: String) throws(ArchiveError) -> Double {
        switch decodeValue(forKey: key) {
        case .real(let number): return number
        case .integer(let number): return Double(number)
        default: throw fail(key, "not a number")
        }
    }

    public func decodeBool(forKey key: String) throws(ArchiveError) -> Bool {
        guard case .bool(let flag) = decodeValue(forKey: key) else { throw fail(key, "not a boolean") }
        return flag
    }

    public func decodeString(forKey key: String) throws(ArchiveError) -> String {
        let value = decodeValue(forKey: key)
        if case .string(let text) = value { return text }
        if case .string(let text, _)? = graph.object(value) { return text }
        throw fail(key, "not a string")
    }

    public func decodeBytes(forKey key: String) throws(ArchiveError) -> [UInt8] {
        let value = decodeValue(forKey: key)
        if case .data(let bytes) = value { return bytes }
        if case .data(let bytes, _)? = graph.object(value) { return bytes }
        throw fail(key, "not data")
    }

    public func decodeDate(forKey key: String) throws(ArchiveError) -> ReferenceDate {
        guard case .date(let seconds)? = graph.object(decodeValue(forKey: key)) else { throw fail(key, "not an NSDate") }
        return ReferenceDate(secondsSince2001: seconds)
    }

    /// An object of an `ArchiveCoding` type; its `$classname` must match the type's.
    public func decodeObject<T: ArchiveCoding>(_ type: T.Type, forKey key: String) throws(ArchiveError) -> T? {
        let value = decodeValue(forKey: key)
        if value == .null { return nil }
        return try Self.decode(type, from: value, in: graph, depth: depth + 1)
    }

    public func decodeCodable<T: Decodable>(_ type: T.Type, forKey key: String) throws(ArchiveError) -> T {
        try ArchiveDecoder().decode(type, from: decodeValue(forKey: key), in: graph)
    }

    /// Decodes an `ArchiveCoding` type from a value of a graph.
    public static func decode<T: ArchiveCoding>(_ type: T.Type, from value: ArchiveValue, in graph: ObjectGraph,
                                                depth: Int = 0) throws(ArchiveError) -> T {
        guard depth < 256 else { throw ArchiveError(.limitExceeded, "objects nest deeper than 256 (a cycle of value types?)") }
        guard case .generic(let archiveClass, let fields)? = graph.object(value), archiveClass.name == T.archiveClass.name else {
            throw ArchiveError(.unsupportedValue, "expected an object of class \(T.archiveClass.name)")
        }
        return try T(from: ArchiveFieldDecoder(graph: graph, fields: fields, owner: "object of class \(archiveClass.name)", depth: depth))
    }
}
