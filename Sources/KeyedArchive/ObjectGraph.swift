/// A decoded (or to-be-encoded) keyed archive as a graph of objects.
///
/// Class objects (anything with a `$class` in the archive) live in `objects` and are referred
/// to by `ObjectRef`, so an object reached from two places is one node and cycles are plain
/// references. Values that Apple stores inline (strings, numbers, booleans, data) are
/// `ArchiveValue` cases and carry no identity. The graph is a value: it is `Sendable` and needs
/// no reference counting tricks for cycles.
public struct ObjectGraph: Sendable {
    /// `$top` entries, keys as stored (an unkeyed `$0` stays `$0`; a keyed `$x` is `$$x`).
    public var top: [(key: String, value: ArchiveValue)]
    public var objects: [ArchivedObject]
    /// For a decoded graph: the `$objects` index (UID) each object came from.
    public var sourceUIDs: [Int]

    public init() {
        top = []
        objects = []
        sourceUIDs = []
    }

    public subscript(ref: ObjectRef) -> ArchivedObject {
        get { objects[ref.index] }
        set { objects[ref.index] = newValue }
    }

    /// Adds an object and returns a value referring to it.
    @discardableResult
    public mutating func add(_ object: ArchivedObject) -> ArchiveValue {
        objects.append(object)
        return .object(ObjectRef(index: objects.count - 1))
    }

    /// Reserves a node to fill later: how a cycle (an object containing itself) is built.
    /// Until it is filled the node holds `.null` (an `NSNull`).
    public mutating func reserve() -> ObjectRef {
        objects.append(.null)
        return ObjectRef(index: objects.count - 1)
    }

    /// The value of a `$top` key as stored.
    public func topValue(_ key: String) -> ArchiveValue? {
        top.first { $0.key == key }?.value
    }

    /// The object a value refers to, if it is a reference.
    public func object(_ value: ArchiveValue) -> ArchivedObject? {
        guard case .object(let ref) = value, objects.indices.contains(ref.index) else { return nil }
        return objects[ref.index]
    }
}

/// The index of an object in an `ObjectGraph`.
public struct ObjectRef: Hashable, Sendable {
    public let index: Int

    public init(index: Int) {
        self.index = index
    }
}

/// A value as it appears in a field, an element or a `$top` key.
public enum ArchiveValue: Sendable, Equatable {
    /// UID 0, `$null`: nil.
    case null
    case bool(Bool)
    case integer(Int64)
    /// An integer above `Int64.max` (stored as a 16-byte integer).
    case unsignedInteger(UInt64)
    case real(Double)
    /// An `NSString` stored inline (de-duplicated by value).
    case string(String)
    /// An `NSData` stored inline.
    case data([UInt8])
    case object(ObjectRef)
    /// A property-list array stored directly in a field (for example an array of UIDs that is
    /// not an `NSArray` object). Only fields of generic objects hold these.
    case inlineArray([ArchiveValue])
}

/// A key/value pair of an `NSDictionary` (keys need not be strings).
public struct ArchivePair: Sendable, Equatable {
    public var key: ArchiveValue
    public var value: ArchiveValue

    public init(key: ArchiveValue, value: ArchiveValue) {
        self.key = key
        self.value = value
    }
}

/// A named field of an object of a class the codec does not model.
public struct ArchiveField: Sendable, Equatable {
    /// The key as stored in the archive (Apple's escaping applied: `$x` is stored as `$$x`).
    public var key: String
    public var value: ArchiveValue

    public init(key: String, value: ArchiveValue) {
        self.key = key
        self.value = value
    }
}

/// An object with a class. `mutable` selects the mutable class (`NSMutableArray`, ...).
public enum ArchivedObject: Sendable, Equatable {
    /// `NSString`/`NSMutableString` written as an object with `NS.string`.
    case string(String, mutable: Bool)
    /// `NSData`/`NSMutableData` written as an object with `NS.data`.
    case data([UInt8], mutable: Bool)
    /// `NSDate`: seconds since 2001-01-01 (`NS.time`).
    case date(Double)
    case array([ArchiveValue], mutable: Bool)
    case dictionary([ArchivePair], mutable: Bool)
    case set([ArchiveValue], mutable: Bool)
    /// `NSOrderedSet`; `indexedKeys` means the `NS.object.N` form macOS 10.14 writes.
    case orderedSet([ArchiveValue], mutable: Bool, indexedKeys: Bool)
    /// `NSCountedSet`: each element with its count.
    case countedSet([CountedElement])
    /// `NSNull` (not nil).
    case null
    /// `NSUUID`: 16 bytes.
    case uuid([UInt8])
    /// `NSURL`: `base` is `.null` or another NSURL; `relative` is kept as written.
    case url(base: ArchiveValue, relative: String)
    /// Any other class: its class chain and its fields, keys sorted as stored.
    case generic(ArchiveClass, fields: [ArchiveField])
}

extension ArchivedObject {
    /// The class record this object is written with (`NSMutableArray`, a generic object's own
    /// class, ...).
    public var archiveClass: ArchiveClass { ClassEncoding.archiveClass(of: self) }
}

/// One distinct element of an `NSCountedSet` and how many times it was added.
public struct CountedElement: Sendable, Equatable {
    public var element: ArchiveValue
    public var count: Int64

    public init(element: ArchiveValue, count: Int64) {
        self.element = element
        self.count = count
    }
}

/// A class record: `$classname` and the `$classes` chain.
public struct ArchiveClass: Hashable, Sendable {
    public var name: String
    public var chain: [String]

    /// A class whose chain is `name`, then `superclasses`, ending in `NSObject` as Apple's are.
    public init(name: String, superclasses: [String] = []) {
        self.name = name
        self.chain = [name] + superclasses + (superclasses.last == "NSObject" ? [] : ["NSObject"])
    }

    /// A class record exactly as found (or wanted) in an archive.
    public init(name: String, chain: [String]) {
        self.name = name
        self.chain = chain
    }
}
