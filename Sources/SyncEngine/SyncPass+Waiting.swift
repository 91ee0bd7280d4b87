import RawPaths
import SyncPlanning

extension SyncPass {
    /// The paths a pass leaves as they are (`waitingOnUnknown`).
    struct Waiting {
        /// Every one: left out of the plan.
        var all: [String] = []
        /// Those that wait on a file still being written, which settles: the pass after it
        /// must look at them. (Those below an item that could not be read wait for it to be
        /// read again, which may last: a full pass looks at them.)
        var onWrites: [String] = []
    }

    /// The `paths` a pass leaves as they are with the scan's `unknown` items (not read, or
    /// still being written): those at or below them; the arrivals of renames made
    /// elsewhere from a file being written here, which its edit is to follow
    /// (`MoveFollowing`): applied at once, the arrival would leave the edit, published
    /// once it settles, at the old name beside it. Only an arrival an edit could follow
    /// waits: nothing at its path here or in the base, and a file at its origin in the base.
    /// And a folder another device deleted or renamed, whole, while something in it is
    /// being written here (`foldersLeftWhileWritten`).
    ///
    /// One walk over the paths, not one per such item: filtering 100,000 paths once per
    /// item took 34-47 ms an item (200 items: 6.8-9.3 s; a copy into the container leaves
    /// thousands unsettled), one walk for 20,000 items 0.1 s.
    static func waitingOnUnknown(
        _ paths: some Collection<String>, in local: LocalTree, histories: [String: PathHistory], base: [String: BaseRow]
    ) -> Waiting {
        guard !local.unknown.isEmpty else { return Waiting() }
        let leftAsIs = Subtrees(local.unknown.compactMap { SyncPath.key($0) })
        let settling = Subtrees(local.deferred.compactMap { SyncPath.key($0) })
        let leftFolders = foldersLeftWhileWritten(paths, in: local, histories: histories, base: base)
        var waiting = Waiting()
        for path in paths {
            if leftAsIs.contains(path) {
                waiting.all.append(path)
                if settling.contains(path) { waiting.onWrites.append(path) }
            } else if leftFolders.contains(path) {
                // Each path, not the folder's: a pass told a folder looks at what this device
                // has below it, not at what other devices changed there.
                waiting.all.append(path)
                waiting.onWrites.append(path)
            } else if !local.deferred.isEmpty, base[path]?.entry.state == nil, local.entries[path] == nil,
                let origin = histories[path]?.winner?.movedFrom, settling.contains(origin), base[origin]?.entry.state?.kind == .file
            {
                waiting.all.append(path)
                waiting.onWrites.append(path)
            }
        }
        return waiting
    }

    /// The folders another device deleted or renamed while something in them here changed
    /// a moment ago, with where a rename took them (among `paths`). What changed may be
    /// a file of the folder renamed here, or a new one, and what sync makes of a rename
    /// made elsewhere depends on it (`FollowedMove.Edit.localRename`, `Relocation`): the
    /// whole rename waits until the scan can read them, then is planned with them in one
    /// pass. Applied at once, it left the folder here, holding them, beside its renamed
    /// copy, and brought it back on every device.
    static func foldersLeftWhileWritten(
        _ paths: some Collection<String>, in local: LocalTree, histories: [String: PathHistory], base: [String: BaseRow]
    ) -> Subtrees {
        var left: Set<String> = []
        for item in local.deferred.compactMap({ SyncPath.key($0) }) {
            var folder = Substring(item)
            while let parent = folder.folderBeforeLastSlash {
                folder = parent
                guard let agreed = base[String(folder)]?.entry, agreed.state?.kind == .folder,
                    let winner = histories[String(folder)]?.winner, winner.state == nil, winner.id != agreed.version
                else { continue }
                left.insert(String(folder))
            }
        }
        guard !left.isEmpty else { return Subtrees([]) }
        var destinations: Set<String> = []
        for path in paths {
            guard let origin = histories[path]?.winner?.movedFrom, isUnapplied(departureFrom: origin, histories: histories, base: base)
            else { continue }
            for folder in left {
                guard let rest = origin.below(folder) else { continue }
                destinations.insert(path)
                // The folder the rename made for it (the arrival's path without the same rest),
                // if this device never had it: one it had is no part of the rename.
                guard let made = path.above(rest).map(String.init) else { continue }
                if base[made]?.entry.state == nil { destinations.insert(made) }
            }
        }
        return Subtrees(left.union(destinations))
    }

    /// Whether a rename's departure from `origin` is still to be applied here: the mirror
    /// has it deleted, and this device still holds the version it had there. (A rename
    /// applied long ago still names where it came from, until its file is edited.)
    private static func isUnapplied(departureFrom origin: String, histories: [String: PathHistory], base: [String: BaseRow]) -> Bool {
        guard let agreed = base[origin]?.entry, agreed.state != nil, let winner = histories[origin]?.winner else { return false }
        return winner.state == nil && winner.id != agreed.version
    }
}
