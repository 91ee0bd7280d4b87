/// What the last sync of a path left behind: the version the device and the mirror
/// agreed on, and the state the local disk had then.
public struct BaseEntry: Hashable, Sendable {
    public var version: VersionID
    /// The local state recorded with it; nil when the agreed version is a deletion.
    public var state: EntryState?

    public init(version: VersionID, state: EntryState?) {
        self.version = version
        self.state = state
    }
}

/// One step that brings a path closer to agreement. The executor re-checks each step's
/// precondition just before committing it.
public enum SyncAction: Hashable, Sendable {
    /// The local state changed since the base: record it in the mirror (upload the content
    /// if the store lacks it, append a record with these parents). `state` nil: a deletion.
    case publish(path: String, state: EntryState?, parents: [VersionID], movedFrom: String? = nil)
    /// The mirror's current version differs from what the disk holds, and the disk has not
    /// changed since the base: make the disk hold `version`'s state. Only if the disk still
    /// holds `expectedLocal`.
    case apply(version: VersionRecord, expectedLocal: EntryState?)
    /// The disk already holds the current version (the same change arrived both ways):
    /// only the base moves.
    case adopt(path: String, version: VersionID, state: EntryState?)
    /// An edit of a file another device renamed meanwhile goes where the rename took it
    /// (see `FollowedMove`). Planned over the whole container (`SyncPlan`), since it spans
    /// two paths; its `path` is the rename's new one.
    case follow(FollowedMove)
    /// A new item of this device's goes where another device's rename took its folder
    /// (see `Relocation`): a local rename, published by the next round. Its `path` is the
    /// new one.
    case relocate(Relocation)
    /// Another device's new item goes where this device renamed its folder (see
    /// `Landing`), and is published there with its departure from its own path; or, moved
    /// out of that folder, it is this device's copy that goes where that device put it.
    /// Its `path` is where it goes.
    case land(Landing)

    public var path: String {
        switch self {
        case .publish(let path, _, _, _), .adopt(let path, _, _): path
        case .apply(let version, _): version.path
        case .follow(let followed): followed.move.path
        case .relocate(let relocation): relocation.to
        case .land(let landing): landing.to
        }
    }
}

/// The three-tree planner (DESIGN.md, decision 3): from what the disk holds (`local`),
/// what the last sync agreed on (`base`) and every version in the mirror (`history`),
/// the one action that moves this path towards agreement, or nil when it is in sync.
///
/// Local changes are published first, with the base (and its twins) as parents; a
/// concurrent change made elsewhere then shows as a second head, and the winner rule
/// settles the path on every device alike. So a change is never overwritten before it is
/// in the mirror.
public enum Planner {
    /// `logsReadInFull`: the devices whose logs were read to their end without a failure
    /// or a skipped line (nil: every device's), so that a version of theirs missing from the
    /// history is known to be gone, not merely unread this time.
    public static func plan(
        path: String, local: EntryState?, base: BaseEntry?, history: PathHistory?, logsReadInFull: Set<String>? = nil
    ) -> SyncAction? {
        let winner = history?.winner
        if local != base?.state {
            if let winner, winner.state == local { return .adopt(path: path, version: winner.id, state: local) }
            // A version the mirror has already, newer than the base and replaced since: no
            // change of this device's. It finds one after a crash between writing a download
            // to the disk and recording its base; publishing it again would undo the newer
            // versions on every device.
            if let winner, winner.id != base?.version, history?.passes(local, from: base?.version, to: winner.id) == true {
                return .apply(version: winner, expectedLocal: local)
            }
            let parents = base.map { [$0.version] + (history?.twins(of: $0.version) ?? []) } ?? []
            return .publish(path: path, state: local, parents: parents, movedFrom: nil)
        }
        guard let winner else {
            // In sync with a mirror that no longer knows the path (its logs were lost or
            // reset): record it again rather than delete anything.
            return base != nil && local != nil ? .publish(path: path, state: local, parents: [], movedFrom: nil) : nil
        }
        if winner.id == base?.version { return nil }
        if winner.state == local { return .adopt(path: path, version: winner.id, state: local) }
        // The mirror lost the version this device agreed on (its log was cut, or restored
        // from an older copy) and holds no version made after it: its winner is older, and
        // applying it would undo a change every device had. Record the disk's state again,
        // on top of the winner. Only once that log was read in full: one unread this time
        // (a network mount's hiccup) may hold a newer version still, which the published
        // one would beat by its time. Until then the path waits.
        if let base, let history, history.record(base.version) == nil, !history.descends(winner.id, from: base.version) {
            guard logsReadInFull?.contains(base.version.device) ?? true else { return nil }
            return .publish(path: path, state: local, parents: [winner.id], movedFrom: nil)
        }
        return .apply(version: winner, expectedLocal: local)
    }
}
