/// The three container kinds of `NodeEncoder`. Each primitive goes through `encodePrimitive`
/// so the integer/real/bool distinction is made in one place.
enum PrimitiveEncoding {
    static func value(_ value: some Encodable) -> ArchiveValue? {
        switch value {
        case let flag as Bool: return .bool(flag)
        case let text as String: return .string(text)
        case let number as Double: return .real(number)
        case let number as Float: return .real(Double(number))
        case let number as Int: return .integer(Int64(number))
        case let number as Int8: return .integer(Int64(number))
        case let number as Int16: return .integer(Int64(number))
        case let number as Int32: return .integer(Int64(number))
        case let number as Int64: return .integer(number)
        case let number as UInt8: return .integer(Int64(number))
        case let number as UInt16: return .integer(Int64(number))
        case let number as UInt32: return .integer(Int64(number))
        case let number as UInt: return UInt64(number) > UInt64(Int64.max) ? .unsignedInteger(UInt64(number)) : .integer(Int64(number))
        case let number as UInt64: return number > UInt64(Int64.max) ? .unsignedInteger(number) : .integer(Int64(number))
        default: return nil
        }
    }

    /// A child node for any encodable: primitives directly, the rest through its `encode(to:)`.
    static func node(for value: some Encodable, types: FoundationTypes) throws -> EncodedNode {
        if let primitive = PrimitiveEncoding.value(value) { return EncodedNode(primitive) }
        return try EncodedNode.capture(value, types: types)
    }
}

struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodedNode
    let codingPath: [any CodingKey]
    let types: FoundationTypes

    private func append(_ key: Key, _ child: EncodedNode) { append(key.stringValue, child) }

    private func append(_ key: String, _ child: EncodedNode) {
        guard case .keyed(var entries) = node.content else { return }
        node.content = .empty // drop the reference so the append does not copy the array
        entries.removeAll { $0.0 == key }
        entries.append((key, child))
        node.content = .keyed(entries)
    }

    mutating func encodeNil(forKey key: Key) throws {
        let child = EncodedNode()
        child.content = .value(.null)
        append(key, child)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        append(key, try PrimitiveEncoding.node(for: value, types: types))
    }

    // The common primitives skip the dynamic casts of the generic path.
    mutating func encode(_ value: String, forKey key: Key) throws { append(key, EncodedNode(.string(value))) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { append(key, EncodedNode(.bool(value))) }
    mutating func encode(_ value: Double, forKey key: Key) throws { append(key, EncodedNode(.real(value))) }
    mutating func encode(_ value: Int, forKey key: Key) throws { append(key, EncodedNode(.integer(Int64(value)))) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { append(key, EncodedNode(.integer(value))) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = EncodedNode()
        append(key, child)
        return NodeEncoder(node: child, codingPath: codingPath + [key], types: types).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = EncodedNode()
        append(key, child)
        return NodeEncoder(node: child, codingPath: codingPath + [key], types: types).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let child = EncodedNode()
        append("super", child)
        return NodeEncoder(node: child, codingPath: codingPath, types: types)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = EncodedNode()
        append(key, child)
        return NodeEncoder(node: child, codingPath: codingPath + [key], types: types)
    }
}

struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let node: EncodedNode
    let codingPath: [any CodingKey]
    let types: FoundationTypes

    var count: Int {
        if case .unkeyed(let items) = node.content { return items.count }
        return 0
    }

    private func append(_ child: EncodedNode) {
        guard case .unkeyed(var items) = node.content else { return }
        node.content = .empty // drop the reference so the append does not copy the array
        items.append(child)
        node.content = .unkeyed(items)
    }

    mutating func encodeNil() throws {
        let child = EncodedNode()
        child.content = .value(.null)
        append(child)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        append(try PrimitiveEncoding.node(for: value, types: types))
    }

    mutating func encode(_ value: String) throws { append(EncodedNode(.string(value))) }
    mutating func encode(_ value: Bool) throws { append(EncodedNode(.bool(value))) }
    mutating func encode(_ value: Double) throws { append(EncodedNode(.real(value))) }
    mutating func encode(_ value: Int) throws { append(EncodedNode(.integer(Int64(value)))) }
    mutating func encode(_ value: Int64) throws { append(EncodedNode(.integer(value))) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = EncodedNode()
        append(child)
        return NodeEncoder(node: child, codingPath: codingPath, types: types).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = EncodedNode()
        append(child)
        return NodeEncoder(node: child, codingPath: codingPath, types: types).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let child = EncodedNode()
        append(child)
        return NodeEncoder(node: child, codingPath: codingPath, types: types)
    }
}

struct SingleNodeContainer: SingleValueEncodingContainer {
    let node: EncodedNode
    let codingPath: [any CodingKey]
    let types: FoundationTypes

    mutating func encodeNil() throws { node.content = .value(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        node.content = try PrimitiveEncoding.node(for: value, types: types).content
    }
}
