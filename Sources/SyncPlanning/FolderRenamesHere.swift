import RawPaths

/// The folder renames this device made and has not published (`Landing`).
extension Landings {
    /// The folders this device renamed, and has not published yet: old path → new path.
    /// The plan publishes the old folder's deletion and the new folder, which this device
    /// never synced, and at least one file below the new path as moved from the same place
    /// below the old (`FolderMoves.Pair`): published as moved from there, or new here with
    /// the content another device's rename or deletion took from there (whose deletion
    /// there is no publish of this device's: the folder may hold nothing else). A folder
    /// renamed to two places is left alone.
    ///
    /// Most plans delete no folder here (a first sync's 100,000 uploads): they cost one look
    /// at each action.
    static func folderRenamesHere(in actions: [SyncAction], trees: SyncTrees) -> [String: String] {
        // No folder deleted here, no folder renamed here: a pass where another device's
        // deletions of 100,000 files meet this device's own builds no table.
        guard actions.contains(where: { action in
            if case .publish(let path, nil, _, _) = action { trees.base[path]?.state?.kind == .folder } else { false }
        }) else { return [:] }
        var pairs: Set<FolderMoves.Pair> = []
        var takenAway: [TakenAway: [String]] = [:]  // the paths another device's renames or deletions took a file from
        for action in actions {
            switch action {
            case .publish(let path, let state?, _, let origin?) where state.kind == .file:
                pairs.formUnion(FolderMoves.Pair.folders(of: path, leaving: origin))
            case .apply(let version, nil):
                if let origin = version.movedFrom, let content = trees.base[origin]?.state?.sha256 {
                    takenAway[TakenAway(content: content, name: origin.lastName), default: []].append(origin)
                }
            case .adopt(let path, _, nil):  // deleted there, and gone here too
                if let content = trees.base[path]?.state?.sha256 {
                    takenAway[TakenAway(content: content, name: path.lastName), default: []].append(path)
                }
            default: continue
            }
        }
        guard !pairs.isEmpty || !takenAway.isEmpty else { return [:] }
        var deleted: Set<String> = []
        var made: Set<String> = []
        for case .publish(let path, let state, _, let origin) in actions {
            guard let state else {
                deleted.insert(path)
                continue
            }
            if state.kind == .folder { made.insert(path) }
            // A file new here holding what another device's rename or deletion took away,
            // and so not published as moved (this device's rename meets that departure).
            if origin == nil, let content = state.sha256, let origins = takenAway[TakenAway(content: content, name: path.lastName)],
                trees.base[path]?.state == nil
            {
                for origin in origins { pairs.formUnion(FolderMoves.Pair.folders(of: path, leaving: origin)) }
            }
        }
        var targets: [String: Set<String>] = [:]
        for pair in pairs where deleted.contains(pair.from) && made.contains(pair.to) {
            guard trees.local[pair.from] == nil, trees.base[pair.from]?.state?.kind == .folder, trees.base[pair.to]?.state == nil
            else { continue }
            targets[pair.from, default: []].insert(pair.to)
        }
        return targets.compactMapValues { $0.count == 1 ? $0.first : nil }
    }

    /// A file another device's rename or deletion took away: its content and name (a
    /// folder's rename keeps the names of what it holds, `FolderMoves.Pair`).
    struct TakenAway: Hashable {
        var content: String
        var name: Substring
    }
}
