/// Writes an `ObjectGraph` as an `NSKeyedArchiver` archive the way Apple's archiver lays it
/// out: `$null` first, each object once (shared objects and cycles are UIDs), inline strings
/// and numbers de-duplicated by typed value (so `1`, `1.0` and `true` stay three objects),
/// one class record per distinct class, mutable classes with their Apple class chains.
public struct KeyedArchiver {
    /// A de-duplication key for inline values; the type is part of the key.
    private enum InlineKey: Hashable {
        case string(String), integer(Int64), unsigned(UInt64), real(UInt64), bool(Bool), data([UInt8])
    }

    private let graph: ObjectGraph
    private var objects: [PlistValue] = [.string("$null")]
    private var uidForRef: [Int: Int] = [:]
    private var uidForInline: [InlineKey: Int] = [:]
    private var uidForClass: [ArchiveClass: Int] = [:]
    private var queue: [(ref: ObjectRef, uid: Int)] = []

    /// Encodes a graph to archive bytes.
    public static func encode(_ graph: ObjectGraph, format: PlistFormat = .binary) throws(ArchiveError) -> [UInt8] {
        try PropertyList.encode(try plist(for: graph), format: format)
    }

    /// The archive as a property list (before serialisation).
    public static func plist(for graph: ObjectGraph) throws(ArchiveError) -> PlistValue {
        var archiver = KeyedArchiver(graph: graph)
        return try archiver.run()
    }

    private init(graph: ObjectGraph) {
        self.graph = graph
    }

    private mutating func run() throws(ArchiveError) -> PlistValue {
        var top = [PlistEntry]()
        for (key, value) in graph.top { top.append(PlistEntry(key, .uid(UInt64(try uid(for: value))))) }
        var next = 0
        while next < queue.count {
            let (ref, uid) = queue[next]
            next += 1
            objects[uid] = .dictionary(try ClassEncoding.fields(of: graph[ref], archiver: &self))
        }
        return .dictionary([
            PlistEntry("$version", .integer(KeyedUnarchiver.archiveVersion)),
            PlistEntry("$archiver", .string(KeyedUnarchiver.archiverName)),
            PlistEntry("$top", .dictionary(top)),
            PlistEntry("$objects", .array(objects)),
        ])
    }

    /// The UID of a value in `$objects`, adding it on first use.
    mutating func uid(for value: ArchiveValue) throws(ArchiveError) -> Int {
        switch value {
        case .null: return 0
        case .string(let text): return inlineUID(.string(text), .string(text))
        case .integer(let number): return inlineUID(.integer(number), .integer(number))
        case .unsignedInteger(let number): return inlineUID(.unsigned(number), .unsignedInteger(number))
        case .real(let number): return inlineUID(.real(number.bitPattern), .real(number))
        case .bool(let flag): return inlineUID(.bool(flag), .bool(flag))
        case .data(let bytes): return inlineUID(.data(bytes), .data(bytes))
        case .object(let ref): return try objectUID(ref)
        case .inlineArray:
            throw ArchiveError(.unsupportedValue, "an inline array can only be a field of a generic object, not an element or $top value")
        }
    }

    private mutating func inlineUID(_ key: InlineKey, _ value: PlistValue) -> Int {
        if let existing = uidForInline[key] { return existing }
        objects.append(value)
        uidForInline[key] = objects.count - 1
        return objects.count - 1
    }

    private mutating func objectUID(_ ref: ObjectRef) throws(ArchiveError) -> Int {
        guard graph.objects.indices.contains(ref.index) else {
            throw ArchiveError(.unsupportedValue, "object reference \(ref.index) is outside the graph of \(graph.objects.count) objects")
        }
        if let existing = uidForRef[ref.index] { return existing }
        objects.append(.string("$null"))
        let uid = objects.count - 1
        uidForRef[ref.index] = uid
        queue.append((ref, uid))
        return uid
    }

    /// The UID of a class record, one per distinct (name, chain).
    mutating func classUID(_ archiveClass: ArchiveClass) -> Int {
        if let existing = uidForClass[archiveClass] { return existing }
        objects.append(.dictionary([
            PlistEntry("$classes", .array(archiveClass.chain.map(PlistValue.string))),
            PlistEntry("$classname", .string(archiveClass.name)),
        ]))
        uidForClass[archiveClass] = objects.count - 1
        return objects.count - 1
    }

    /// A UID reference to a value, as stored in a field.
    mutating func reference(_ value: ArchiveValue) throws(ArchiveError) -> PlistValue {
        .uid(UInt64(try uid(for: value)))
    }

    mutating func references(_ values: [ArchiveValue]) throws(ArchiveError) -> PlistValue {
        var refs = [PlistValue]()
        refs.reserveCapacity(values.count)
        for value in values { refs.append(try reference(value)) }
        return .array(refs)
    }
}
