import KeyedArchive

extension KeyValueSnapshot {
    /// The file's bytes.
    public func encoded() -> [UInt8] {
        let keys = entries.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let list: [PlistEntry] = keys.map { key in
            let entry = entries[key]!
            var fields = [PlistEntry("time", .integer(entry.time)), PlistEntry("writer", .string(entry.writer))]
            if let value = entry.value { fields.append(PlistEntry("value", value)) }
            return PlistEntry(key, .dictionary(fields))
        }
        let top = PlistValue.dictionary([
            PlistEntry("format", .string(Self.format)), PlistEntry("version", .integer(Self.version)),
            PlistEntry("entries", .dictionary(list)),
        ])
        return (try? PropertyList.encode(top, format: .binary)) ?? []  // only XML encoding can fail
    }

    /// Reads a store's file; `file` names it in errors. Throws for a file that is not a
    /// store, or holds an entry it cannot read: nothing of it is dropped without a word.
    public static func decode(_ bytes: [UInt8], file: String) throws(KeyValueStoreError) -> KeyValueSnapshot {
        let top: PlistValue
        do {
            top = try PropertyList.decode(bytes)
        } catch {
            throw KeyValueStoreError(.unreadableFile, "\(file) is not a key-value store: \(error.message)")
        }
        guard case .string(format)? = top["format"] else {
            throw KeyValueStoreError(.unreadableFile, "\(file) is not a key-value store: no \"format\": \"\(format)\" at its top")
        }
        guard case .integer(let version)? = top["version"], version <= Self.version else {
            throw KeyValueStoreError(.unreadableFile, "\(file) is a key-value store of a version this program does not read (it reads version \(Self.version)); update it")
        }
        guard case .dictionary(let list)? = top["entries"] else {
            throw KeyValueStoreError(.unreadableFile, "\(file) has no \"entries\" dictionary")
        }
        var entries: [String: KeyValueEntry] = [:]
        for item in list {
            guard case .string(let key) = item.key else {
                throw KeyValueStoreError(.unreadableFile, "\(file) has an entry whose key is a \(item.key.kindName), not a string")
            }
            entries[key] = try entry(item.value, key: key, file: file)
        }
        return KeyValueSnapshot(entries: entries)
    }

    private static func entry(_ fields: PlistValue, key: String, file: String) throws(KeyValueStoreError) -> KeyValueEntry {
        guard case .integer(let time)? = fields["time"], case .string(let writer)? = fields["writer"] else {
            throw KeyValueStoreError(.unreadableFile, "\(file): the entry \"\(key)\" lacks an integer \"time\" or a string \"writer\"")
        }
        // A time past the year 9999 (a hand-made or damaged file) is taken as that year's end,
        // so that a change made here can still be dated after it, and win.
        return KeyValueEntry(value: fields["value"], time: min(time, latestTime), writer: writer)
    }

    /// 9999-12-31T23:59:59.999Z, in milliseconds since 1970.
    static let latestTime: Int64 = 253_402_300_799_999
}
