import RawPaths

/// A folder that something inside it outlives: one device deleted the folder, or replaced
/// it with a file or a link, while this device or another kept working inside it (an
/// edit, a new file). The edit wins, as at a single path (`WinnerRule`), but here the two
/// changes are at different paths, and applying both would need a folder and a link at
/// the same place: the devices that hold the link could never write the files, and those
/// that hold the folder could never put the link in its place.
///
/// So a device whose folder at such a path is still occupied after its plan does not apply
/// the replacement: it publishes its folder as the newer version (a child of the
/// replacement's). Every device then computes the folder as current, puts it back, with
/// what is inside it, and the replaced version stays in the path's history. Several devices
/// may publish the folder at once: their versions hold the same state, so they make no
/// conflict (`PathHistory.twins`). The invariant is the one Dropbox's Nucleus states: no
/// item exists without its parent folder.
///
/// A file or link the folder is published over is kept beside it as a conflict copy
/// (`besides`): it may be an edit as much as the folder's content is (a device that
/// edited a file another replaced by a folder: the edit won by its time), and in the
/// path's history alone no one would see it again.
enum OccupiedFolders {
    /// `actions`, where each one that would empty a local folder still occupied after the
    /// plan publishes the folder instead; and the files and links so replaced.
    static func keeping(_ actions: [SyncAction], trees: SyncTrees) -> (actions: [SyncAction], besides: [VersionRecord]) {
        let replacing = actions.indices.filter { actions[$0].replacedFolder != nil }
        guard !replacing.isEmpty else { return (actions, []) }
        let occupied = occupiedFolders(after: actions, trees: trees)
        var kept = actions
        var besides: [VersionRecord] = []
        for index in replacing {
            guard let (version, folder) = actions[index].replacedFolder, occupied.contains(version.path) else { continue }
            let twins = trees.histories[version.path]?.twins(of: version.id) ?? []
            kept[index] = .publish(path: version.path, state: folder, parents: [version.id] + twins)
            if version.state != nil { besides.append(version) }
        }
        return (kept, besides)
    }

    /// The folders that hold at least one item once `actions` are done: an action's path
    /// holds what the action leaves there, a path without one what the scan found. What a
    /// scoped pass did not look at does not count: publishing a folder on a guess would
    /// bring it back on every device, while applying the replacement into a folder that is
    /// not empty after all only fails, harmlessly, and the next pass plans again.
    static func occupiedFolders(after actions: [SyncAction], trees: SyncTrees) -> Set<String> {
        var outcome: [String: Bool] = [:]
        var relocated: Set<String> = []  // what is below goes along
        for action in actions {
            switch action {
            case .publish(let path, let state, _, _), .adopt(let path, _, let state): outcome[path] = state != nil
            case .apply(let version, _): outcome[version.path] = version.state != nil
            case .follow(let followed):
                outcome[followed.from] = false
                outcome[followed.move.path] = true
            case .relocate(let relocation):
                outcome[relocation.from] = false
                outcome[relocation.to] = true
                relocated.insert(relocation.from)
            case .land(let landing):
                outcome[landing.version.path] = false
                outcome[landing.to] = !landing.isDeletion
                if let source = landing.source, !landing.isLandedAlready { outcome[source.path] = false }
            }
        }
        var occupied: Set<String> = []
        func markAncestors(of path: String) {
            var folder = Substring(path)
            while let slash = folder.lastSlash {
                folder = folder[..<slash]
                // Its own ancestors were marked with it.
                guard occupied.insert(String(folder)).inserted else { return }
            }
        }
        for (path, there) in outcome where there { markAncestors(of: path) }
        for path in trees.local.keys where outcome[path] == nil {
            if !relocated.isEmpty, path.enclosingFolders.contains(where: relocated.contains) { continue }
            markAncestors(of: path)
        }
        return occupied
    }
}
