/// Turns a property list holding an `NSKeyedArchiver` archive into an `ObjectGraph`.
///
/// Objects are decoded from a work queue, not by recursion: resolving a UID only allocates the
/// node of the object it names, so deep nesting cannot exhaust the stack and cycles need no
/// special case. Every UID, `$class` and class record is checked and an error names it.
public struct KeyedUnarchiver {
    public static let archiverName = "NSKeyedArchiver"
    public static let archiveVersion: Int64 = 100_000

    private let objects: [PlistValue]
    private var graph = ObjectGraph()
    /// Graph node of each `$objects` index (-1: not reached yet); an array, since UIDs are
    /// dense and every reference goes through here.
    private var refForUID: [Int]
    private var queue: [(uid: Int, ref: ObjectRef)] = []
    private var classForUID: [Int: ArchiveClass] = [:]

    /// Decodes archive bytes (binary or XML).
    public static func decode(_ bytes: [UInt8], limits: DecodingLimits = .standard) throws(ArchiveError) -> ObjectGraph {
        try decode(plist: try PropertyList.decode(bytes, limits: limits))
    }

    /// Decodes an archive already read as a property list.
    public static func decode(plist: PlistValue) throws(ArchiveError) -> ObjectGraph {
        let (objects, topEntries) = try validateEnvelope(plist)
        var unarchiver = KeyedUnarchiver(objects: objects)
        return try unarchiver.run(topEntries)
    }

    /// Checks `$archiver`, `$version`, `$top` and `$objects`, in the order Apple's reader does.
    static func validateEnvelope(_ plist: PlistValue) throws(ArchiveError) -> ([PlistValue], [PlistEntry]) {
        guard case .dictionary = plist else { throw .invalid("not a keyed archive: the top level is a \(plist.kindName), not a dictionary") }
        guard case .string(archiverName) = plist["$archiver"] else { throw .invalid("bad $archiver \(describe(plist["$archiver"]))") }
        guard case .integer(archiveVersion) = plist["$version"] else { throw .invalid("bad $version \(describe(plist["$version"]))") }
        guard case .dictionary(let top) = plist["$top"] else { throw .invalid("missing/invalid $top") }
        guard case .array(let objects) = plist["$objects"] else { throw .invalid("missing/invalid $objects") }
        return (objects, top)
    }

    private static func describe(_ value: PlistValue?) -> String {
        switch value {
        case nil: "None (missing)"
        case .string(let text)?: "'\(text)'"
        case .integer(let number)?: "\(number)"
        case let other?: "of type \(other.kindName)"
        }
    }

    private init(objects: [PlistValue]) {
        self.objects = objects
        self.refForUID = Array(repeating: -1, count: objects.count)
    }

    private mutating func run(_ topEntries: [PlistEntry]) throws(ArchiveError) -> ObjectGraph {
        for entry in topEntries {
            guard case .string(let key) = entry.key else { throw .invalid("$top has a \(entry.key.kindName) key; keys must be strings") }
            graph.top.append((key: key, value: try fieldValue(entry.value, owner: "$top", key: key)))
        }
        var next = 0
        while next < queue.count {
            let (uid, ref) = queue[next]
            next += 1
            graph[ref] = try decodeObject(uid: uid)
        }
        return graph
    }

    /// The value a UID names: inline scalars directly, class objects as a graph reference.
    mutating func resolve(uid: UInt64) throws(ArchiveError) -> ArchiveValue {
        guard uid < UInt64(objects.count) else { throw .invalid("UID \(uid) out of range") }
        let index = Int(uid)
        if index == 0 { return .null }
        switch objects[index] {
        case .string(let text): return .string(text)
        case .integer(let number): return .integer(number)
        case .unsignedInteger(let number): return .unsignedInteger(number)
        case .real(let number): return .real(number)
        case .bool(let flag): return .bool(flag)
        case .data(let bytes): return .data(bytes)
        case .dictionary: return .object(allocate(uid: index))
        case let other: throw .invalid("object UID \(index) is a \(other.kindName), which cannot be an archived object")
        }
    }

    private mutating func allocate(uid: Int) -> ObjectRef {
        if refForUID[uid] >= 0 { return ObjectRef(index: refForUID[uid]) }
        let ref = graph.reserve()
        graph.sourceUIDs.append(uid)
        refForUID[uid] = ref.index
        queue.append((uid, ref))
        return ref
    }

    /// A value stored in a field: a UID is resolved, a scalar is taken as it is.
    mutating func fieldValue(_ value: PlistValue, owner: String, key: String) throws(ArchiveError) -> ArchiveValue {
        switch value {
        case .uid(let uid): return try resolve(uid: uid)
        case .string(let text): return .string(text)
        case .integer(let number): return .integer(number)
        case .unsignedInteger(let number): return .unsignedInteger(number)
        case .real(let number): return .real(number)
        case .bool(let flag): return .bool(flag)
        case .data(let bytes): return .data(bytes)
        case .date(let seconds): return graph.add(.date(seconds))
        case .array(let items), .set(let items):
            var values = [ArchiveValue]()
            values.reserveCapacity(items.count)
            for item in items { values.append(try fieldValue(item, owner: owner, key: key)) }
            return .inlineArray(values)
        case .dictionary: throw .invalid("\(owner) key '\(key)' holds a dictionary that is not an object reference")
        }
    }

    private mutating func decodeObject(uid: Int) throws(ArchiveError) -> ArchivedObject {
        guard case .dictionary(let entries) = objects[uid] else { throw .invalid("object UID \(uid) is not a dictionary") }
        guard case .uid(let classUID)? = objects[uid]["$class"] else {
            throw .invalid("object UID \(uid) is a dictionary without $class")
        }
        let archiveClass = try classRecord(classUID)
        return try ClassDecoding.decode(archiveClass, from: ObjectFieldReader(uid: uid, entries: entries), unarchiver: &self)
    }

    private mutating func classRecord(_ uid: UInt64) throws(ArchiveError) -> ArchiveClass {
        guard uid < UInt64(objects.count) else { throw .invalid("UID \(uid) out of range") }
        let index = Int(uid)
        if let known = classForUID[index] { return known }
        guard case .string(let name)? = objects[index]["$classname"] else {
            throw .invalid("class object \(index) has no string $classname")
        }
        var chain = [String]()
        if let classes = objects[index]["$classes"] {
            guard case .array(let names) = classes else { throw .invalid("class object \(index) has invalid $classes") }
            for case .string(let className) in names { chain.append(className) }
            guard chain.count == names.count else { throw .invalid("class object \(index) has invalid $classes") }
        }
        let record = ArchiveClass(name: name, chain: chain)
        classForUID[index] = record
        return record
    }
}

/// The fields of one archived object, for the class decoders.
struct ObjectFieldReader {
    let uid: Int
    let entries: [PlistEntry]

    func raw(_ key: String) -> PlistValue? {
        for entry in entries {
            if case .string(let name) = entry.key, name == key { return entry.value }
        }
        return nil
    }

    func error(_ key: String, _ problem: String) -> ArchiveError {
        .invalid("object UID \(uid) key '\(key)': \(problem)")
    }
}
