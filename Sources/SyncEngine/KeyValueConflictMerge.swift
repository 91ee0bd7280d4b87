import KeyValueStore

/// Two concurrent versions of a container's key-value store (`KeyValueStore.plist` at the
/// top of its folder, written by the library's `UbiquitousKeyValueStore`) merge key by key,
/// the later change of each key winning, as NSUbiquitousKeyValueStore's do: no conflict
/// version. The merge is deterministic, so devices merging at once write the same bytes.
enum KeyValueConflictMerge {
    static func applies(to path: String) -> Bool { path == KeyValueSnapshot.fileName }

    /// The merged store, or nil when either version is not a store this version reads
    /// (the conflict is then kept as any other: nothing is dropped).
    static func merge(winner: [UInt8], loser: [UInt8]) -> [UInt8]? {
        guard let winning = try? KeyValueSnapshot.decode(winner, file: KeyValueSnapshot.fileName),
            let losing = try? KeyValueSnapshot.decode(loser, file: KeyValueSnapshot.fileName)
        else { return nil }
        return winning.merging(losing).encoded()
    }
}
