/// The Codable bridge, encoding side: an `Encodable` value becomes archive values. Keyed
/// containers become `NSDictionary` objects (or, at the top, a named class), unkeyed ones
/// `NSArray`, numbers keep their type (`Bool` is never an integer, `0.0` stays a real),
/// `ReferenceDate` and `Foundation.Date` become `NSDate`, `Foundation.Data` becomes data.
public struct ArchiveEncoder {
    public init() {}

    /// Encodes `value` into `graph` and returns the value to store (for example under a
    /// `$top` key). With `asClass`, a keyed value becomes an object of that class instead of
    /// an `NSDictionary`.
    public func encode<T: Encodable>(_ value: T, into graph: inout ObjectGraph, asClass: ArchiveClass? = nil) throws(ArchiveError) -> ArchiveValue {
        let node = try EncodedNode.capture(value, types: FoundationTypes())
        return try node.archiveValue(in: &graph, asClass: asClass)
    }
}

/// What an `Encodable` wrote, before it is turned into archive objects.
final class EncodedNode {
    enum Content {
        case empty
        case value(ArchiveValue)
        case date(Double)
        case keyed([(String, EncodedNode)])
        case unkeyed([EncodedNode])
    }

    var content: Content = .empty

    init() {}

    init(_ value: ArchiveValue) {
        content = .value(value)
    }

    static func capture<T: Encodable>(_ value: T, types: FoundationTypes) throws(ArchiveError) -> EncodedNode {
        let node = EncodedNode()
        if let date = value as? ReferenceDate {
            node.content = .date(date.secondsSince2001)
            return node
        }
        do {
            try value.encode(to: NodeEncoder(node: node, codingPath: [], types: types))
        } catch let error as ArchiveError {
            throw error
        } catch {
            throw ArchiveError(.unsupportedValue, "encoding \(T.self) failed: \(error)")
        }
        return node.adjusted(for: types.kind(of: T.self))
    }

    /// Foundation's `Date` encodes itself as a Double and `Data` as an array of bytes; the
    /// codec has no Foundation, so it recognises them by name and stores NSDate and data.
    private func adjusted(for kind: FoundationTypes.Kind) -> EncodedNode {
        switch (kind, content) {
        case (.date, .value(.real(let seconds))): content = .date(seconds)
        case (.data, .unkeyed(let items)):
            var bytes = [UInt8]()
            for case .value(.integer(let byte)) in items.map(\.content) { bytes.append(UInt8(truncatingIfNeeded: byte)) }
            if bytes.count == items.count { content = .value(.data(bytes)) }
        default: break
        }
        return self
    }

    func archiveValue(in graph: inout ObjectGraph, asClass: ArchiveClass? = nil) throws(ArchiveError) -> ArchiveValue {
        switch content {
        case .empty: return .null
        case .value(let value): return value
        case .date(let seconds): return graph.add(.date(seconds))
        case .unkeyed(let items):
            let ref = graph.reserve()
            var values = [ArchiveValue]()
            values.reserveCapacity(items.count)
            for item in items { values.append(try item.archiveValue(in: &graph)) }
            graph[ref] = .array(values, mutable: false)
            return .object(ref)
        case .keyed(let entries):
            let ref = graph.reserve()
            if let archiveClass = asClass {
                var fields = [ArchiveField]()
                for (key, node) in entries { fields.append(ArchiveField(key: KeyEscaping.stored(key), value: try node.archiveValue(in: &graph))) }
                graph[ref] = .generic(archiveClass, fields: fields)
            } else {
                var pairs = [ArchivePair]()
                pairs.reserveCapacity(entries.count)
                for (key, node) in entries { pairs.append(ArchivePair(key: .string(key), value: try node.archiveValue(in: &graph))) }
                graph[ref] = .dictionary(pairs, mutable: false)
            }
            return .object(ref)
        }
    }
}

/// Apple's keyed coders store a key that starts with `$` with one more `$`, so it cannot
/// collide with `$class` and the other archive keys.
public enum KeyEscaping {
    public static func stored(_ key: String) -> String { key.hasPrefix("$") ? "$" + key : key }
    public static func original(_ stored: String) -> String { stored.hasPrefix("$$") ? String(stored.dropFirst()) : stored }
}

/// Sorts types into the kinds the bridge treats specially, once per type and run: dynamic
/// casts and type names are costly, and a run sees the same few types again and again.
/// Foundation's `Date` and `Data` are told by name, as the codec does not import Foundation.
final class FoundationTypes {
    enum Kind { case primitive, referenceDate, date, data, other }

    private var kinds: [ObjectIdentifier: Kind] = [:]

    func kind(of type: Any.Type) -> Kind {
        if let known = kinds[ObjectIdentifier(type)] { return known }
        let kind = Self.classify(type)
        kinds[ObjectIdentifier(type)] = kind
        return kind
    }

    private static func classify(_ type: Any.Type) -> Kind {
        if type == String.self || type == Bool.self || type == Double.self || type == Float.self || type is any FixedWidthInteger.Type {
            return .primitive
        }
        if type == ReferenceDate.self { return .referenceDate }
        switch String(reflecting: type) {
        case "Foundation.Date": return .date
        case "Foundation.Data": return .data
        default: return .other
        }
    }
}

struct NodeEncoder: Encoder {
    let node: EncodedNode
    let codingPath: [any CodingKey]
    let types: FoundationTypes
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .keyed = node.content {} else { node.content = .keyed([]) }
        return KeyedEncodingContainer(KeyedNodeContainer<Key>(node: node, codingPath: codingPath, types: types))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .unkeyed = node.content {} else { node.content = .unkeyed([]) }
        return UnkeyedNodeContainer(node: node, codingPath: codingPath, types: types)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleNodeContainer(node: node, codingPath: codingPath, types: types)
    }
}
