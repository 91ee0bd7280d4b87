import KeyedArchive

/// What a key-value store's file holds: each key's last change (`KeyValueEntry`).
///
/// Snapshots merge key by key, the later change winning (NSUbiquitousKeyValueStore's
/// last-writer-wins): `merging` is commutative, associative and idempotent, so devices and
/// processes that merge in any order, any number of times, end with the same store.
///
/// The file is a binary property list (docs/MIRROR-FORMAT.md, "Merged documents"):
/// `{format: "ubiquity-kvs", version: 1, entries: {KEY: {time, writer, value?}}}`, the
/// entries in key order, so equal snapshots are equal bytes on every device.
public struct KeyValueSnapshot: Sendable, Equatable {
    /// The store's file, at the top of its container folder.
    public static let fileName = "KeyValueStore.plist"
    static let format = "ubiquity-kvs"
    static let version: Int64 = 1

    public private(set) var entries: [String: KeyValueEntry] {
        didSet { heldBytes = nil }
    }
    /// The bytes the values count against the limits, once counted (`set` keeps it up to
    /// date: counting every value at each set made filling a store quadratic).
    private var heldBytes: Int?

    public init(entries: [String: KeyValueEntry] = [:]) {
        self.entries = entries
    }

    public static func == (left: KeyValueSnapshot, right: KeyValueSnapshot) -> Bool { left.entries == right.entries }

    /// The keys that hold a value, with it.
    public var values: [String: PlistValue] { entries.compactMapValues(\.value) }

    public func value(forKey key: String) -> PlistValue? { entries[key]?.value }

    /// Sets `key` to `value`, or removes it (nil). The change is dated `now`, or just after
    /// the change it replaces if that one is dated later (another device's clock ran
    /// ahead): a change made here always replaces what this store holds. Throws, changing
    /// nothing, for a key or value the store cannot hold or past its limits.
    public mutating func set(
        _ value: PlistValue?, forKey key: String, writer: String, now: Int64, limits: KeyValueLimits = .standard
    ) throws(KeyValueStoreError) {
        try limits.check(key: key)
        if let value { try KeyValueLimits.check(value: value, key: key) }
        let replaced = entries[key]?.time ?? .min
        let time = max(now, replaced == .max ? replaced : replaced + 1)
        let bytes = self.bytes - size(key, entries[key]?.value) + size(key, value)
        let held = heldKeys
        let keys = held + (value != nil ? 1 : 0) - (entries[key]?.value != nil ? 1 : 0)
        // A store a merge took past a limit still takes changes that do not grow past it.
        let newKeys = keys > held ? keys : 0
        let newBytes = bytes > self.bytes ? bytes : 0
        if let excess = Self.excess(keys: newKeys, bytes: newBytes, limits: limits) {
            throw KeyValueStoreError(.quotaExceeded, "setting \"\(key)\" would put \(excess); remove keys first")
        }
        entries[key] = KeyValueEntry(value: value, time: time, writer: writer)
        heldBytes = bytes
    }

    /// Both snapshots' changes, the later one for each key.
    public func merging(_ other: KeyValueSnapshot) -> KeyValueSnapshot {
        var merged = self
        for (key, theirs) in other.entries where merged.entries[key].map({ theirs.wins(over: $0) }) ?? true {
            merged.entries[key] = theirs
        }
        return merged
    }

    /// The keys whose value differs from `earlier`'s, in order.
    public func keysChanged(since earlier: KeyValueSnapshot) -> [String] {
        Set(entries.keys).union(earlier.entries.keys)
            .filter { !KeyValueEntry.same(value(forKey: $0), earlier.value(forKey: $0)) }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// What the store holds beyond `limits` (a merge of two stores may), or nil.
    public func excess(of limits: KeyValueLimits) -> String? {
        Self.excess(keys: heldKeys, bytes: bytes, limits: limits)
    }

    /// How many keys hold a value.
    private var heldKeys: Int { entries.values.count { $0.value != nil } }

    private static func excess(keys: Int, bytes: Int, limits: KeyValueLimits) -> String? {
        if keys > limits.keys { return "\(keys) keys in the store, more than the \(limits.keys) it may hold" }
        if bytes > limits.totalBytes { return "\(bytes) bytes in the store, more than the \(limits.totalBytes) it may hold" }
        return nil
    }

    /// The bytes the values count against `KeyValueLimits.totalBytes`.
    private var bytes: Int {
        heldBytes ?? entries.reduce(0) { $0 + size($1.key, $1.value.value) }
    }

    private func size(_ key: String, _ value: PlistValue?) -> Int {
        value.map { KeyValueLimits.size(key: key, value: $0) } ?? 0
    }
}
