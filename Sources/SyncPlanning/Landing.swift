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
/// the deleted item came back on every device, in `y`. A deletion whose landing did not
/// complete before A's rename went out (a folder kept for an editor's swap file in it)
/// lands in a later pass all the same (`Strays.renames(aboveDeletionsIn:)`). The other
/// way round, an edit B made of a file A deleted after its rename comes back in `y` (an
/// edit beats a deletion: `keptEdits`), not in `x` made again for it.
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
    /// it since; or the item found at `to` already (`isLandedAlready`). For a deletion
    /// (`isDeletion`), the copy that goes. Its own publish is dropped: it is the item now.
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

    /// Whether the item is at `to` already, unpublished (`Landings.landedBefore`): only its
    /// publish is left to do.
    public var isLandedAlready: Bool { source?.path == to && !isDeletion }

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
        // Published already, only deletions land: what else arrives is a stray (`Strays`).
        // The new folder may have been renamed here since, and not published yet.
        let published = Strays.renames(aboveDeletionsIn: actions, trees: trees).filter { renames[$0.key] == nil }
            .mapValues { renames[$0] ?? Relocations.destination(of: $0, renames: renames) ?? $0 }
        guard !renames.isEmpty || !published.isEmpty else { return actions }
        let newPublishes = newPublishes(in: actions, trees: trees)
        var landings: [String: Landing] = [:]  // by the item's path
        var madeFolders: Set<String> = []
        var staying: Set<String> = []  // arrivals fetched where they are, and so what they hold
        var claimed: Set<String> = []  // destinations and sources taken
        for (version, destination) in arrivals(in: actions, trees: trees, renames: renames) {
            let there = destination.flatMap { landedBefore(version, at: $0, trees: trees, newPublishes: newPublishes) }
            guard let destination, !version.path.enclosingFolders.contains(where: staying.contains), !claimed.contains(destination),
                there != nil || Relocations.isFree(destination, trees: trees, made: madeFolders)
            else {
                staying.insert(version.path)
                continue
            }
            let source = there ?? (source(of: version, trees: trees, renames: renames, newPublishes: newPublishes)
                .flatMap { claimed.contains($0.path) ? nil : $0 })
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
        let all = renames.merging(published) { here, _ in here }
        landings.merge(deletions(in: actions, trees: trees, renames: all, newPublishes: newPublishes, leaving: leaving)) { first, _ in first }
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

    /// The paths of the items the plan publishes as new here: nothing, or a deletion, was
    /// agreed on there.
    static func newPublishes(in actions: [SyncAction], trees: SyncTrees) -> Set<String> {
        Set(actions.compactMap { action -> String? in
            guard case .publish(let path, _?, _, nil) = action, trees.base[path]?.state == nil else { return nil }
            return path
        })
    }

    /// This device's new item at `destination`, not yet published, that holds what
    /// `version` holds: the item is there already, landed by a pass that a crash cut short
    /// before its publish (or made here alike). It is the landing's source, in place
    /// (`Landing.isLandedAlready`): nothing is fetched, and its publish as a new item is
    /// dropped. Without this, the item was fetched at its old path, which made the old
    /// folder again, and published a second time as new where it had landed.
    static func landedBefore(_ version: VersionRecord, at destination: String, trees: SyncTrees, newPublishes: Set<String>) -> Landing.Source? {
        guard newPublishes.contains(destination), let here = trees.local[destination], here == version.state,
            trees.histories[destination]?.winner?.state == nil
        else { return nil }
        return Landing.Source(path: destination, state: here)
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
