import APIModel

/// The unresolved conflict versions of every file that has some, by the file's canonical
/// absolute path: what sync knows after a pass.
public struct ConflictSnapshot: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var item: VersionedItem
        public var versions: [VersionInfo]

        public init(item: VersionedItem, versions: [VersionInfo]) {
            self.item = item
            self.versions = versions
        }
    }

    public var files: [[UInt8]: Entry]

    public init(_ files: [[UInt8]: Entry] = [:]) {
        self.files = files
    }
}

/// What a file's presenter is told as its conflict versions come and go, as
/// NSFilePresenter's `presentedItemDidGain(_:)`, `presentedItemDidResolveConflict(_:)` and
/// `presentedItemDidLose(_:)`: a version in the new snapshot and not the old was gained;
/// one in the old and not the new was resolved (here or on another device), or lost if it
/// is no longer among the file's versions at all (`lost`: removed with
/// `removeOtherVersionsOfItem`). Only the presenter of that very file hears: folders above
/// it are not told.
public enum ConflictVersionPlanner {
    public static func notices(
        from old: ConflictSnapshot, to new: ConflictSnapshot, lost: Set<String> = [], presenters: [Presence]
    ) -> [PresenterPlan] {
        let messages = changes(from: old, to: new, lost: lost)
        guard !messages.isEmpty else { return [] }
        return AccessPlanner.plans(presenters, leavingOut: nil) { messages[$0.path] ?? [] }
    }

    /// The versions that left `old` for `new`: resolved, or lost.
    public static func departed(from old: ConflictSnapshot, to new: ConflictSnapshot) -> [(item: VersionedItem, version: VersionInfo)] {
        old.files.flatMap { path, before in
            let kept = Set((new.files[path]?.versions ?? []).map(\.id))
            return before.versions.filter { !kept.contains($0.id) }.map { (before.item, $0) }
        }
    }

    /// The messages for each file whose conflict versions changed: resolutions and losses
    /// first, then gains, each in the order the snapshot lists the versions. A resolved or
    /// lost version is told as the old snapshot had it, but for `conflict`, now false.
    static func changes(from old: ConflictSnapshot, to new: ConflictSnapshot, lost: Set<String>) -> [[UInt8]: [PresenterMessage]] {
        var messages: [[UInt8]: [PresenterMessage]] = [:]
        for path in Set(old.files.keys).union(new.files.keys) {
            let before = old.files[path]
            let after = new.files[path]
            let kept = Set((after?.versions ?? []).map(\.id))
            let known = Set((before?.versions ?? []).map(\.id))
            let resolved = (before?.versions ?? []).filter { !kept.contains($0.id) }.map { version in
                var settled = version
                settled.conflict = false  // no longer an unresolved conflict version
                let kind: PresenterMessage.Kind = lost.contains(version.id) ? .didLoseVersion : .didResolveConflictVersion
                return PresenterMessage(kind, version: settled, item: before?.item)
            }
            let gained = (after?.versions ?? []).filter { !known.contains($0.id) }.map {
                PresenterMessage(.didGainVersion, version: $0, item: after?.item)
            }
            if !(resolved + gained).isEmpty { messages[path] = resolved + gained }
        }
        return messages
    }
}
