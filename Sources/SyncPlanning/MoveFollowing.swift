/// Finds the edits that follow a concurrent rename (`FollowedMove`). A rename spans two
/// paths, so this looks at the whole plan, not one path as `Planner` does.
///
/// A rename of `P` to `Q` is recognised in the mirror by its two halves, made by one
/// device: the current version of `Q`, a file with `movedFrom == P`, and a deletion head of
/// `P` whose single parent `v` had the same content (the file moved unchanged). An edit of
/// `v` made concurrently, here or elsewhere, then follows the rename, and so does its
/// deletion here (`FollowedMove.Edit.localDeletion`), and its rename here when the other
/// device's rename only took the file along with its folder (`.localRename`). Whenever
/// anything is unclear (several renames from `P`, several edits, an edit of another
/// version than `v`, something else at `Q`), nothing follows: both files stay, as they
/// would without this.
enum MoveFollowing {
    static func follows(in trees: SyncTrees, candidates: Set<String>) -> [FollowedMove] {
        var arrivals: [String: [VersionRecord]] = [:]  // the path a rename left → its arrivals
        for path in candidates {
            guard let move = trees.histories[path]?.winner, let origin = move.movedFrom, move.state?.kind == .file,
                candidates.contains(origin)
            else { continue }
            arrivals[origin, default: []].append(move)
        }
        var newHere = NewContents(trees)
        return arrivals.keys.sorted().compactMap { origin in follow(from: origin, arrivals: arrivals[origin] ?? [], trees, newHere: &newHere) }
    }

    private static func follow(from origin: String, arrivals: [VersionRecord], _ trees: SyncTrees, newHere: inout NewContents) -> FollowedMove? {
        guard let history = trees.histories[origin], let (deletion, move) = rename(leaving: history, arrivals: arrivals),
            destinationIsFree(for: move, trees)
        else { return nil }
        let edits = history.heads.filter { !$0.isDeletion }
        let edit: FollowedMove.Edit
        let departure: FollowedMove.Departure
        switch edits.count {
        case 0:
            guard let current = history.winner else { return nil }
            if let local = localEdit(at: origin, of: deletion.parents[0], trees) {
                (edit, departure) = (.localFile(local), .adoptDeletion(current.id))
            } else if deletedHere(at: origin, moved: deletion.parents[0], trees) {
                if !newHere.holds(trees.base[origin]?.state) {
                    (edit, departure) = (.localDeletion, .adoptDeletion(current.id))
                } else if takesItsFolder(move, from: origin, trees) {
                    (edit, departure) = (.localRename, .adoptDeletion(current.id))
                } else {
                    return nil  // two renames of one file: both names stay
                }
            } else {
                return nil
            }
        case 1:
            guard let found = mirrorEdit(edits[0], at: origin, departing: deletion, history, trees) else { return nil }
            (edit, departure) = (found, .publishDeletion(replacing: history.heads.map(\.id)))
        default:
            return nil  // concurrent edits: a conflict, which stays where it is
        }
        return FollowedMove(move: move, from: origin, edit: edit, departure: departure, expectedAtDestination: trees.local[move.path])
    }

    /// The rename that left `history`'s path: a deletion head with one parent, whose content
    /// one of `arrivals` made by the same device carries. Nil unless exactly one.
    static func rename(leaving history: PathHistory, arrivals: [VersionRecord]) -> (deletion: VersionRecord, move: VersionRecord)? {
        let renames = history.heads.filter(\.isDeletion).compactMap { deletion -> (VersionRecord, VersionRecord)? in
            guard deletion.parents.count == 1, let left = history.record(deletion.parents[0])?.state, left.kind == .file else { return nil }
            let moves = arrivals.filter { $0.id.device == deletion.id.device && $0.state?.sha256 == left.sha256 }
            return moves.count == 1 ? (deletion, moves[0]) : nil
        }
        return renames.count == 1 ? renames[0] : nil
    }

    /// Whether the edit may take the rename's new path here: nothing is there, nor was
    /// when this device last synced it (never, or a deletion: a file moved back where it
    /// once was), or the renamed content is, synced and unchanged (the edit replaces it;
    /// the mirror keeps it as the previous version).
    static func destinationIsFree(for move: VersionRecord, _ trees: SyncTrees) -> Bool {
        let (local, base) = (trees.local[move.path], trees.base[move.path])
        guard let local else { return base?.state == nil }
        return local == move.state && base == BaseEntry(version: move.id, state: local)
    }

    /// An edit made here of the version the rename moved, not published yet: the disk holds
    /// a file other than the base's, and the base is that version.
    static func localEdit(at path: String, of moved: VersionID, _ trees: SyncTrees) -> EntryState? {
        guard let local = trees.local[path], local.kind == .file, let base = trees.base[path], base.version == moved,
            local != base.state
        else { return nil }
        return local
    }

    /// Whether this device deleted the version the rename moved, and has not published that
    /// yet: the disk holds nothing at `path`, where the base is that version. (A deletion
    /// already published does not follow: its version in the mirror may as well be a
    /// third device's rename, which the history alone does not tell apart.)
    static func deletedHere(at path: String, moved: VersionID, _ trees: SyncTrees) -> Bool {
        guard trees.local[path] == nil, !trees.stillOnDisk.contains(path), let base = trees.base[path] else { return false }
        return base.version == moved && base.state?.kind == .file
    }

    /// Whether the rename took the file along with its folder: the file keeps its name, and
    /// the rename's device deleted the folder it was in and made the one it is in now (a
    /// folder renamed or moved, which the mirror records item by item). A rename here of
    /// the file then composes with it, where a rename of the file itself would compete.
    static func takesItsFolder(_ move: VersionRecord, from origin: String, _ trees: SyncTrees) -> Bool {
        guard let folders = FolderMoves.Pair.folders(of: move.path, leaving: origin).first,  // the innermost: the file's own
            let left = trees.histories[folders.from]?.winner, left.state == nil, left.id.device == move.id.device,
            let made = trees.histories[folders.to]?.winner, made.state?.kind == .folder, made.id.device == move.id.device
        else { return false }
        return true
    }

    /// The contents of the files new here (no base, or a deletion): a file gone from a
    /// path while its content is new at another was renamed here (`SyncPlan.pairingRenames`),
    /// not deleted.
    /// Worked out once, and only if a deletion would follow: a look at every local file.
    struct NewContents {
        let trees: SyncTrees
        private var contents: Set<String>?

        init(_ trees: SyncTrees) { self.trees = trees }

        mutating func holds(_ state: EntryState?) -> Bool {
            guard let content = state?.sha256 else { return false }
            if contents == nil {
                contents = Set(trees.local.compactMap { path, state in trees.base[path]?.state == nil ? state.sha256 : nil })
            }
            return contents?.contains(content) == true
        }
    }

    /// The mirror's edit of the version the rename moved (the version it shares with the
    /// rename's deletion is that one), if this device can move it: it holds the edit at
    /// `path`, synced and unchanged, or holds nothing there.
    static func mirrorEdit(
        _ edit: VersionRecord, at path: String, departing deletion: VersionRecord, _ history: PathHistory, _ trees: SyncTrees
    ) -> FollowedMove.Edit? {
        guard edit.state?.kind == .file, history.commonAncestor(of: edit.id, deletion.id)?.id == deletion.parents.first else { return nil }
        let (local, base) = (trees.local[path], trees.base[path])
        if local == nil, base?.state == nil { return .mirrorVersion(edit) }
        if let local, base == BaseEntry(version: edit.id, state: local) { return .localFile(local) }
        return nil
    }
}
