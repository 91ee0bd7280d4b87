/// The NSCoding-like side of the codec: a Swift type that archives itself under a class name
/// of its choice, with keyed fields, the way an `NSCoding` class does.
///
///     struct Note: ArchiveCoding {
///         static let archiveClass = ArchiveClass(name: "Note")
///         var text: String
///         func encode(with coder: inout ArchiveFieldEncoder) throws(ArchiveError) { coder.encode(text, forKey: "text") }
///         init(from coder: ArchiveFieldDecoder) throws(ArchiveError) { text = try coder.decodeString(forKey: "text") }
///     }
public protocol ArchiveCoding {
    /// The `$classname` and `$classes` chain to write (make it end in `NSObject`).
    static var archiveClass: ArchiveClass { get }
    func encode(with coder: inout ArchiveFieldEncoder) throws(ArchiveError)
    init(from coder: ArchiveFieldDecoder) throws(ArchiveError)
}

/// Collects the fields of one object (or, at the top, the `$top` keys of an archive). Keys
/// starting with `$` are escaped as Apple escapes them. Objects that are class instances are
/// archived once per identity, so shared instances stay shared.
public struct ArchiveFieldEncoder {
    public private(set) var graph: ObjectGraph
    public private(set) var fields: [ArchiveField] = []
    /// Archived class instances by identity. The instance is kept alive with its node: a
    /// freed instance's address (its identity) could otherwise be reused by a new object.
    private var identities: [ObjectIdentifier: (instance: AnyObject, ref: ObjectRef)] = [:]
    private var unkeyedCount = 0

    /// A top-level coder: its fields become the archive's `$top`.
    public init() {
        graph = ObjectGraph()
    }

    private init(graph: ObjectGraph, identities: [ObjectIdentifier: (instance: AnyObject, ref: ObjectRef)]) {
        self.graph = graph
        self.identities = identities
    }

    public mutating func encode(_ value: ArchiveValue, forKey key: String) {
        fields.append(ArchiveField(key: KeyEscaping.stored(key), value: value))
    }

    public mutating func encode(_ value: Int, forKey key: String) { encode(.integer(Int64(value)), forKey: key) }
    public mutating func encode(_ value: Int64, forKey key: String) { encode(.integer(value), forKey: key) }
    public mutating func encode(_ value: Double, forKey key: String) { encode(.real(value), forKey: key) }
    public mutating func encode(_ value: Bool, forKey key: String) { encode(.bool(value), forKey: key) }
    public mutating func encode(_ value: String?, forKey key: String) { encode(value.map(ArchiveValue.string) ?? .null, forKey: key) }
    public mutating func encode(bytes: [UInt8], forKey key: String) { encode(.data(bytes), forKey: key) }
    public mutating func encode(_ date: ReferenceDate, forKey key: String) {
        encode(graph.add(.date(date.secondsSince2001)), forKey: key)
    }

    /// Adds an object built by hand (an `NSArray`, an `NSSet`, ...) and stores a reference.
    public mutating func encode(object: ArchivedObject, forKey key: String) { encode(graph.add(object), forKey: key) }

    public mutating func encode<T: ArchiveCoding>(_ object: T?, forKey key: String) throws(ArchiveError) {
        guard let object else { return encode(.null, forKey: key) }
        encode(try value(of: object), forKey: key)
    }

    /// Stores a Codable value (a dictionary, or an object of `asClass`).
    public mutating func encodeCodable<T: Encodable>(_ value: T, forKey key: String, asClass: ArchiveClass? = nil) throws(ArchiveError) {
        encode(try ArchiveEncoder().encode(value, into: &graph, asClass: asClass), forKey: key)
    }

    /// An unkeyed value (`encode(_:)` in NSCoder): stored under `$0`, `$1`, ... unescaped.
    public mutating func encodeUnkeyed(_ value: ArchiveValue) {
        fields.append(ArchiveField(key: "$\(unkeyedCount)", value: value))
        unkeyedCount += 1
    }

    /// The archive value of an object, adding it (once per class instance) to the graph.
    public mutating func value<T: ArchiveCoding>(of object: T) throws(ArchiveError) -> ArchiveValue {
        let instance: AnyObject? = T.self is AnyClass ? object as AnyObject : nil
        let identity = instance.map(ObjectIdentifier.init)
        if let identity, let known = identities[identity] { return .object(known.ref) }
        let ref = graph.reserve()
        if let identity, let instance { identities[identity] = (instance, ref) }
        var child = ArchiveFieldEncoder(graph: ObjectGraph(), identities: identities)
        swap(&child.graph, &graph)
        defer { swap(&child.graph, &graph); identities = child.identities }
        try object.encode(with: &child)
        child.graph[ref] = .generic(T.archiveClass, fields: child.fields)
        return .object(ref)
    }

    /// The archive with this coder's fields as `$top`.
    public func archiveGraph() -> ObjectGraph {
        var result = graph
        result.top = fields.map { (key: $0.key, value: $0.value) }
        return result
    }

    public func archiveBytes(format: PlistFormat = .binary) throws(ArchiveError) -> [UInt8] {
        try KeyedArchiver.encode(archiveGraph(), format: format)
    }
}
