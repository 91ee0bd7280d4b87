import RawPaths

/// Another device's new item that goes where this device renamed its folder: `Relocation`
/// the other way round. Device A, offline, renames folder `x` to `y`, while device B adds
/// `x/new.txt`, or renames `x/a.txt` to `x/b.txt`. Without landing, A's next pass fetches
/// B's item into a folder `x` made again for it, and every device ends with `x`, holding
/// only that item, beside `y` (and, for the rename, `y/a.txt` beside `x/b.txt`). Landing,
/// A puts the item at `y/new.txt` (renaming its own `y/a.txt` to `y/b.txt`) and publishes
/// it there, and its departure from `x/new.txt` (a file names where it came from), with
/// the rest of its folder's rename, in the same round: every device sees `x` renamed whole.
///
/// Only items this device never had (nothing agreed on at their path) and that are in no
/// conflict land, each where nothing is or arrives, nor was when this device last synced
/// it (a deletion was); a folder lands before what it holds, and only with all it holds
/// (`Landings.keepingWhole`). An item that cannot land is fetched at its own path, as it
/// would be without this.
///
/// A file B moved out of `x` (to `z/a.txt`) lands in place: A renames its own copy, which
/// its rename took to `y/a.txt`, to `z/a.txt`, and publishes nothing (B published the
/// move). Without this, A fetched `z/a.txt` and published `y/a.txt` as new: two names.
///
/// A deletion lands too (`isDeletion`): an item B deleted from `x` (or a subfolder B
/// renamed, whose items land under its new name) goes from where A's rename took it, if A
/// did not change it; a folder, once all it holds goes or lands elsewhere. Nothing is
/// published: B published the deletion. Without this, A published its copy as new, and
/// the deleted item came back on every device, in `y`. The other way round, an edit B
/// made of a file A deleted after its rename comes back in `y` (an edit beats a
/// deletion: `keptEdits`), not in `x` made again for it.
public struct Landing: Hashable, Sendable {
    /// The item: the mirror's current version of its path, below the folder's old path.
    public var version: VersionRecord
    /// Where this device's rename of the folder takes it.
    public var to: String
    /// The versions at `to` its publish there replaces: the deletion this device agreed
    /// on there, if any.
    public var replacing: [VersionID]
    /// The versions at the item's path its departure replaces: `version` and the heads
    /// that hold the same state (the same item made on two devices at once). Left a head,
    /// such a twin would win against the departure, and bring the item back there.
    public var leaving: [VersionID]
    /// The local file to rename to `to` instead of fetching the content: the file another
    /// device renamed into the item (`version.movedFrom`), where this device's rename of
    /// the folder took it, holding the content as it was renamed or as this device edited
    /// it since. For a deletion (`isDeletion`), the copy that goes. Its own publish is
    /// dropped: it is the item now.
    public var source: Source?

    public struct Source: Hashable, Sendable {
        public var path: String
        public var state: EntryState

        public init(path: String, state: EntryState) {
            self.path = path
            self.state = state
        }
    }

    public init(version: VersionRecord, to: String, replacing: [VersionID] = [], leaving: [VersionID]? = nil, source: Source? = nil) {
        self.version = version
        self.to = to
        self.replacing = replacing
        self.leaving = leaving ?? [version.id]
        self.source = source
    }

    /// The path the item is published as having come from at `to`: files name it (only
    /// files do, in the mirror format); folders and links are made anew.
    public var movedFrom: String? { version.state?.kind == .file ? version.path : nil }

    /// Whether the item lands at its own path (a file another device moved out of the
    /// folder): only this device's copy, `source`, moves, and nothing is published.
    public var isInPlace: Bool { to == version.path }

    /// Whether another device deleted the item: this device's copy, `source`, at `to`, goes,
    /// and the base takes the deletion at the item's path. Nothing is published.
    public var isDeletion: Bool { version.state == nil }
}

/// Finds the landings a plan holds (`Landing`).
enum Landings {
    /// `actions` with the fetch of each item that lands replaced by its landing (and, for a
    /// deletion, the adoption at its old path; for an edit kept, this device's deletion's
    /// publish there: `keptEdits`), and the publish of each landing's source dropped.
    ///
    /// Runs after `SyncPlan.pairingRenames`, which tells the files this device moved with
    /// its folder (they are published with where they came from).
    static func landing(_ actions: [SyncAction], trees: SyncTrees) -> [SyncAction] {
        let renames = folderRenamesHere(in: actions, trees: trees)
        guard !renames.isEmpty else { return actions }
        let newPublishes = Set(actions.compactMap { action -> String? in
            guard case .publish(let path, _?, _, nil) = action, trees.base[path]?.state == nil else { return nil }
            return path
        })
        var landings: [String: Landing] = [:]  // by the item's path
        var madeFolders: Set<String> = []
        var staying: Set<String> = []  // arrivals fetched where they are, and so what they hold
        var claimed: Set<String> = []  // destinations and sources taken
        for (version, destination) in arrivals(in: actions, trees: trees, renames: renames) {
            guard let destination, !version.path.enclosingFolders.contains(where: staying.contains), !claimed.contains(destination),
                Relocations.isFree(destination, trees: trees, made: madeFolders)
            else {
                staying.insert(version.path)
                continue
            }
            let source = source(of: version, trees: trees, renames: renames, newPublishes: newPublishes)
                .flatMap { claimed.contains($0.path) ? nil : $0 }
            claimed.formUnion([destination] + (source.map { [$0.path] } ?? []))
            if version.state?.kind == .folder { madeFolders.insert(destination) }
            let agreed = trees.base[destination].map { [$0.version] } ?? []
            let twins = trees.histories[version.path]?.twins(of: version.id) ?? []
            landings[version.path] = Landing(version: version, to: destination, replacing: agreed, leaving: [version.id] + twins, source: source)
        }
        keepingWhole(&landings, staying: staying)
        for case .apply(let version, nil) in actions where landings[version.path] == nil && trees.base[version.path]?.state == nil {
            guard Relocations.destination(of: version.path, renames: renames) == nil,
                let source = source(of: version, trees: trees, renames: renames, newPublishes: newPublishes), claimed.insert(source.path).inserted
            else { continue }
            landings[version.path] = Landing(version: version, to: version.path, source: source)
        }
        landings.merge(keptEdits(in: actions, trees: trees, renames: renames, made: madeFolders, claimed: &claimed)) { first, _ in first }
        let leaving = Set(landings.values.compactMap(\.source?.path))
        landings.merge(deletions(in: actions, trees: trees, renames: renames, newPublishes: newPublishes, leaving: leaving)) { first, _ in first }
        guard !landings.isEmpty else { return actions }
        let sources = Set(landings.values.compactMap(\.source?.path))
        return actions.compactMap { action in
            switch action {
            case .apply(let version, nil): landings[version.path].map(SyncAction.land) ?? action
            case .adopt(let path, _, nil): landings[path].flatMap { $0.isDeletion ? SyncAction.land($0) : nil } ?? action
            case .publish(let path, nil, _, _) where landings[path] != nil: landings[path].map(SyncAction.land)  // `keptEdits`
            case .publish(let path, _, _, _) where sources.contains(path): nil
            default: action
            }
        }
    }

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

    /// Drops the landing of each folder that holds an item that stays (fetched at its old
    /// path, it would make the folder there again), and so the landings of what that
    /// folder holds, until none is left to drop.
    static func keepingWhole(_ landings: inout [String: Landing], staying: Set<String>) {
        var staying = staying
        while !staying.isEmpty {
            let holdingStaying = Set(staying.lazy.flatMap(\.enclosingFolders))
            let dropped = landings.keys.filter { path in
                holdingStaying.contains(path) || path.enclosingFolders.contains(where: staying.contains)
            }
            guard !dropped.isEmpty else { return }
            for path in dropped { landings[path] = nil }
            staying.formUnion(dropped)
        }
    }

    /// The items the plan fetches below a folder this device renamed, that this device
    /// never had, each with where the rename takes it and whether it may land there (in no
    /// conflict: a departure would leave the losing version current at the old path); in
    /// path order, so that a folder comes before what it holds.
    static func arrivals(in actions: [SyncAction], trees: SyncTrees, renames: [String: String]) -> [(VersionRecord, String?)] {
        actions.compactMap { action -> (VersionRecord, String?)? in
            guard case .apply(let version, nil) = action, version.state != nil, trees.base[version.path]?.state == nil,
                let destination = Relocations.destination(of: version.path, renames: renames)
            else { return nil }
            return (version, trees.histories[version.path]?.conflicts.isEmpty != false ? destination : nil)
        }.sorted { $0.0.path < $1.0.path }
    }

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

    /// The local file a renamed item may be moved from: where this device's rename of the
    /// folder took the item's old path, if the file there is new here (`newPublishes`),
    /// the item holds what this device last synced at the old path (the other device only
    /// renamed it), and the mirror calls the old path deleted (that rename left it). The
    /// file may have been edited here since: the edit follows the rename, as an edit of the
    /// file at its old path would (`FollowedMove`), and goes out as the landing's publish.
    static func source(of version: VersionRecord, trees: SyncTrees, renames: [String: String], newPublishes: Set<String>) -> Landing.Source? {
        guard let origin = version.movedFrom, let state = version.state, state.kind == .file,
            let moved = Relocations.destination(of: origin, renames: renames), newPublishes.contains(moved),
            let here = trees.local[moved], here.kind == .file, trees.base[origin]?.state == state,
            let left = trees.histories[origin]?.winner, left.state == nil
        else { return nil }
        return Landing.Source(path: moved, state: here)
    }
}
