struct NodeDecoder: Decoder {
    let context: DecodingContext
    let value: ArchiveValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(KeyedNodeReader<Key>(context: context, members: try members(), codingPath: codingPath))
    }

    /// The string-keyed members of a dictionary or of a named class's fields.
    private func members() throws -> KeyedMembers {
        guard case .object(let ref) = value, context.graph.objects.indices.contains(ref.index) else {
            throw context.mismatch("a dictionary", value, codingPath)
        }
        var result = [(String, ArchiveValue)]()
        switch context.graph[ref] {
        case .dictionary(let pairs, _):
            result.reserveCapacity(pairs.count)
            for pair in pairs {
                guard case .string(let key) = context.resolved(pair.key) else { throw context.mismatch("string keys", pair.key, codingPath) }
                result.append((key, pair.value))
            }
        case .generic(_, let fields):
            result = fields.map { (KeyEscaping.original($0.key), $0.value) }
        default: throw context.mismatch("a dictionary", value, codingPath)
        }
        return KeyedMembers(result)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        if case .inlineArray(let items) = value { return UnkeyedNodeReader(context: context, items: items, codingPath: codingPath) }
        guard case .object(let ref) = value, context.graph.objects.indices.contains(ref.index) else {
            throw context.mismatch("an array", value, codingPath)
        }
        switch context.graph[ref] {
        case .array(let items, _), .set(let items, _), .orderedSet(let items, _, _):
            return UnkeyedNodeReader(context: context, items: items, codingPath: codingPath)
        default: throw context.mismatch("an array", value, codingPath)
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleNodeReader(context: context, value: value, codingPath: codingPath)
    }
}

struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { return nil }
}

/// Members of a keyed container. Records have a handful of keys, where a linear search beats
/// hashing every key of every record; large dictionaries get a hash table.
struct KeyedMembers {
    private let list: [(String, ArchiveValue)]
    private let table: [String: ArchiveValue]?

    init(_ list: [(String, ArchiveValue)]) {
        self.list = list
        self.table = list.count > 16 ? Dictionary(list, uniquingKeysWith: { _, last in last }) : nil
    }

    var keys: [String] { list.map(\.0) }

    subscript(key: String) -> ArchiveValue? {
        if let table { return table[key] }
        for (name, value) in list.reversed() where name == key { return value }
        return nil
    }
}

struct KeyedNodeReader<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let context: DecodingContext
    let members: KeyedMembers
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func member(_ key: Key) throws -> ArchiveValue {
        guard let value = members[key.stringValue] else {
            throw ArchiveError(.unsupportedValue, "at \(DecodingContext.pathText(codingPath)): missing key '\(key.stringValue)'")
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { (members[key.stringValue] ?? .null) == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try context.decode(type, from: try member(key), codingPath: codingPath + [key])
    }

    // The common primitives skip the dynamic casts of the generic path.
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        let value = context.resolved(try member(key))
        guard case .string(let text) = value else { throw context.mismatch("a string", value, codingPath + [key]) }
        return text
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try NodeDecoder(context: context, value: try member(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try NodeDecoder(context: context, value: try member(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        NodeDecoder(context: context, value: members["super"] ?? .null, codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        NodeDecoder(context: context, value: members[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

struct UnkeyedNodeReader: UnkeyedDecodingContainer {
    let context: DecodingContext
    let items: [ArchiveValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(context: DecodingContext, items: [ArchiveValue], codingPath: [any CodingKey]) {
        self.context = context
        self.items = items
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private mutating func next() throws -> (ArchiveValue, [any CodingKey]) {
        guard !isAtEnd else {
            throw ArchiveError(.unsupportedValue, "at \(DecodingContext.pathText(codingPath)): read past the end of \(items.count) items")
        }
        currentIndex += 1
        return (items[currentIndex - 1], codingPath + [IndexKey(intValue: currentIndex - 1)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next()
        return try context.decode(type, from: value, codingPath: path)
    }

    mutating func decode(_ type: String.Type) throws -> String {
        let (value, path) = try next()
        guard case .string(let text) = context.resolved(value) else { throw context.mismatch("a string", value, path) }
        return text
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (value, path) = try next()
        return try NodeDecoder(context: context, value: value, codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next()
        return try NodeDecoder(context: context, value: value, codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next()
        return NodeDecoder(context: context, value: value, codingPath: path)
    }
}

struct SingleNodeReader: SingleValueDecodingContainer {
    let context: DecodingContext
    let value: ArchiveValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value == .null }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try context.decode(type, from: value, codingPath: codingPath)
    }
}
