import RawPaths

/// Deletions made on either side of a folder rename made here and not published yet
/// (`Landing`): another device's deletion of an item the rename took along, and another
/// device's edit of a file this device deleted after the rename.
extension Landings {
    /// Another device's edits of files this device deleted after its folder rename took them
    /// along, by the old path: an edit beats a deletion, so the file comes back, where the
    /// rename put it (fetched there, and published as moved from its old path), instead of
    /// at its old path, which made the old folder again on every device. Only for a file
    /// in no conflict whose place in the renamed folder is free, and whose deletion here
    /// no publish of the plan names as where it came from (a rename here the plan did not
    /// pair, one with an edit, looks like a deletion: the edit then comes back beside the
    /// new name, as it would at the old path without a folder rename).
    static func keptEdits(
        in actions: [SyncAction], trees: SyncTrees, renames: [String: String], made: Set<String>, claimed: inout Set<String>
    ) -> [String: Landing] {
        let renamedFrom = Set(actions.compactMap { if case .publish(_, _?, _, let origin?) = $0 { origin } else { nil } })
        var found: [String: Landing] = [:]
        for case .publish(let path, nil, _, _) in actions where !renamedFrom.contains(path) {
            guard let base = trees.base[path], base.state?.kind == .file, let history = trees.histories[path], let edit = history.winner,
                edit.state?.kind == .file, edit.id != base.version, history.conflicts.isEmpty,
                let destination = Relocations.destination(of: path, renames: renames), !claimed.contains(destination),
                Relocations.isFree(destination, trees: trees, made: made)
            else { continue }
            claimed.insert(destination)
            found[path] = Landing(version: edit, to: destination, leaving: [edit.id] + history.twins(of: edit.id))
        }
        return found
    }

    /// The deletions that land (`Landing.isDeletion`), by the deleted path: each item this
    /// device had, another device deleted (the plan agrees, as this device's rename took it
    /// away), and the rename took where this device has it new and unchanged (a file, a
    /// link) or where it holds only what goes or lands elsewhere (`leaving`: the files the
    /// landings move away; a folder). Deepest first, so that a folder knows what in it goes.
    static func deletions(
        in actions: [SyncAction], trees: SyncTrees, renames: [String: String], newPublishes: Set<String>, leaving: Set<String>
    ) -> [String: Landing] {
        var found: [String: Landing] = [:]
        var folders: [Landing] = []
        for case .adopt(let path, _, nil) in actions {
            guard let had = trees.base[path]?.state, let deletion = trees.histories[path]?.winner, deletion.state == nil,
                let destination = Relocations.destination(of: path, renames: renames), newPublishes.contains(destination),
                !leaving.contains(destination), let here = trees.local[destination]
            else { continue }
            let landing = Landing(version: deletion, to: destination, leaving: [], source: Landing.Source(path: destination, state: here))
            if had.kind == .folder, here.kind == .folder {
                folders.append(landing)
            } else if here == had {
                found[path] = landing
            }
        }
        guard !folders.isEmpty else { return found }
        var gone = leaving.union(found.values.map(\.to))
        let holders = Set(folders.map(\.to))
        var held: [String: [String]] = [:]  // a folder's destination → what the disk holds below it
        for path in trees.local.keys {
            for folder in holders where path.below(folder) != nil { held[folder, default: []].append(path) }
        }
        for landing in folders.sorted(by: { $0.to.depth > $1.to.depth }) where held[landing.to, default: []].allSatisfy(gone.contains) {
            found[landing.version.path] = landing
            gone.insert(landing.to)
        }
        return found
    }
}
