import RawPaths

/// A folder this device deleted while another device renamed it: its files' deletions
/// follow the rename (`FollowedMove.Edit.localDeletion`), and so do its folders' and
/// links'. Without this, every device would end with the renamed folder's skeleton: its
/// folders, empty, and its links. The same holds when this device moved the files out
/// before deleting the folder, or renamed the folder too (`.localRename`): the files live
/// on where this device put them, and the other device's new folder would stay empty.
/// Those adoptions are no deletion the guard weighs, unless a deletion made here lies in
/// the folder too.
///
/// The mirror records a folder's rename with its folders and links made anew at the new
/// path (only files name where they came from), so such an item is one the plan would make
/// below the new path where this device deleted the same item (same state: a folder's
/// mode, a link's target) at the old path. The plan then only moves the base (`adopt`), as
/// if the item had arrived: the next round finds it missing and publishes its deletion,
/// as for the files. A file another device put in the folder meanwhile still arrives, and
/// the folder with it (a download makes the folders it goes in), which the next round
/// then keeps.
enum FolderDeletionFollowing {
    /// A renamed folder: its old path, and the device that renamed it.
    struct Rename {
        var from: String
        var device: String
        /// Whether a deletion made here (not only a rename, whose files live on) lies in the
        /// folder or in one that holds it: only then do its adoptions count as deletions
        /// for the guard.
        var deletesFiles: Bool
    }

    /// `actions` with those applies made adoptions, and for each that a deletion here
    /// tells of, the path deleted here (what the deletion guard weighs). `renamedHere`:
    /// the folders this device renamed (`Landings.folderRenamesHere`), which took what they
    /// held along, deleting none of it.
    static func following(
        _ actions: [SyncAction], trees: SyncTrees, renamedHere: [String: String] = [:]
    ) -> (actions: [SyncAction], deleted: [String: String]) {
        let renames = deletedRenamedFolders(in: actions, trees: trees, renamedHere: renamedHere)
        guard !renames.isEmpty else { return (actions, [:]) }
        var deleted: [String: String] = [:]
        let followed = actions.map { action in
            guard case .apply(let version, nil) = action, let state = version.state, state.kind != .file,
                let (origin, rename) = origin(of: version.path, renames: renames), version.id.device == rename.device,
                trees.local[origin] == nil, !trees.stillOnDisk.contains(origin), trees.base[origin]?.state == state
            else { return action }
            if rename.deletesFiles { deleted[version.path] = origin }
            return .adopt(path: version.path, version: version.id, state: state)
        }
        return (followed, deleted)
    }

    /// Where `path` was before the innermost rename in `renames` (by new path) it is at or
    /// below, and that rename.
    static func origin(of path: String, renames: [String: Rename]) -> (String, Rename)? {
        if let rename = renames[path] { return (rename.from, rename) }
        for folder in path.enclosingFolders {
            if let rename = renames[folder], let rest = path.below(folder) { return (rename.from + "/" + rest, rename) }
        }
        return nil
    }

    /// The renamed folders this device deleted at their old path, by new path: pairs of
    /// folders (`FolderMoves.Pair`) that a followed deletion or rename of a renamed file lies in,
    /// where the old folder is gone here and was, in the base, the very version the other
    /// device's deletion replaced, and the plan makes the new folder, by that same device.
    static func deletedRenamedFolders(in actions: [SyncAction], trees: SyncTrees, renamedHere: [String: String] = [:]) -> [String: Rename] {
        var pairs: Set<FolderMoves.Pair> = []
        var deleting: Set<FolderMoves.Pair> = []  // the pairs a deletion made here lies in
        for case .follow(let followed) in actions where followed.edit.carriesNoContent {
            let found = FolderMoves.Pair.folders(of: followed.move.path, leaving: followed.from)
            pairs.formUnion(found)
            if followed.edit == .localDeletion { deleting.formUnion(found) }
        }
        guard !pairs.isEmpty else { return [:] }
        var made: [String: VersionRecord] = [:]
        for case .apply(let version, nil) in actions where version.state?.kind == .folder { made[version.path] = version }
        // A deletion made here tells of every folder at or below the one it lay in: their
        // adoptions wait with it, and with the renames in them (`withoutPublishedDeletions`).
        let deletedIn = Set(deleting.map(\.from))
        var renames: [String: Rename] = [:]
        for pair in pairs {
            guard trees.local[pair.from] == nil, !trees.stillOnDisk.contains(pair.from), let base = trees.base[pair.from], base.state?.kind == .folder,
                let gone = trees.histories[pair.from]?.winner, gone.state == nil, gone.parents == [base.version],
                let arrival = made[pair.to], arrival.id.device == gone.id.device, trees.local[pair.to] == nil,
                Relocations.destination(of: pair.from, renames: renamedHere).map({ trees.local[$0] == nil }) ?? true
            else { continue }
            let deletesFiles = deletedIn.contains(pair.from) || pair.from.enclosingFolders.contains(where: deletedIn.contains)
            renames[pair.to] = Rename(from: pair.from, device: gone.id.device, deletesFiles: deletesFiles)
        }
        return renames
    }
}
