import KeyedArchive

/// NSUbiquitousKeyValueStore's limits: at most 1,024 keys, each at most 64 bytes of UTF-8,
/// and 1 MiB in all (each key's bytes plus its value's, as a binary property list).
public struct KeyValueLimits: Sendable, Equatable {
    public var keys = 1024
    public var keyBytes = 64
    public var totalBytes = 1 << 20

    public init() {}

    public static let standard = KeyValueLimits()

    /// Throws for a key the store cannot hold.
    public func check(key: String) throws(KeyValueStoreError) {
        guard !key.isEmpty else { throw KeyValueStoreError(.invalidKey, "a key cannot be empty") }
        guard key.utf8.count <= keyBytes else {
            throw KeyValueStoreError(.invalidKey, "the key \"\(key.prefix(20))…\" is \(key.utf8.count) bytes long; keys hold at most \(keyBytes) bytes of UTF-8")
        }
    }

    /// Throws for a value that is not one a store holds: property-list values (strings,
    /// numbers, booleans, dates, data, arrays, dictionaries with string keys), as NSUbiquitousKeyValueStore takes.
    public static func check(value: PlistValue, key: String) throws(KeyValueStoreError) {
        switch value {
        case .uid, .set:
            throw KeyValueStoreError(.invalidValue, "the value for \"\(key)\" holds a \(value.kindName), which is no property-list value a store keeps")
        case .array(let items):
            for item in items { try check(value: item, key: key) }
        case .dictionary(let entries):
            for entry in entries {
                guard case .string = entry.key else {
                    throw KeyValueStoreError(.invalidValue, "the value for \"\(key)\" holds a dictionary with a \(entry.key.kindName) key; keys must be strings")
                }
                try check(value: entry.value, key: key)
            }
        case .string, .integer, .unsignedInteger, .real, .bool, .date, .data: break
        }
    }

    /// The bytes `key` and `value` count against `totalBytes`.
    static func size(key: String, value: PlistValue) -> Int {
        key.utf8.count + ((try? PropertyList.encode(value, format: .binary))?.count ?? 0)
    }
}
