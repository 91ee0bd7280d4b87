import RawPaths

/// Another device's new item left in a folder whose rename is already published: device A
/// renamed `x` to `y` and device B added `x/new.txt`, and the mirror got both without
/// either device having read the other's change first (both published at once, or A's
/// landing of B's item was skipped and its rename went out without it). The mirror then
/// holds `x/new.txt` below a folder whose current version is a deletion, the rename's
/// departure. Without this, the first device to fetch the item made `x` again for it, and
/// every device ended with `x`, holding only that item, beside `y`.
///
/// A live item below a deleted folder is always such a meeting: a device that knew of the
/// deletion would have made the folder again first (its publish names the deletion as
/// parent, and wins). So any device that fetches the item lands it where the rename took
/// the folder (a `Landing`: fetched there, published as moved from its old path, with its
/// departure), if the mirror tells the rename: shortly before the deletion, the device
/// that deleted the folder made one other folder and moved at least one file from below
/// the old to the same place below the new, and the new folder is live (or was renamed on:
/// `publishedRenames`). Devices that do this at once publish the same
/// arrival and departure: twins, which agree. A folder deleted without such a rename
/// (`rm -r x` on A) comes back with the item, as before.
enum Strays {
    /// `actions` with the fetch of each stray item replaced by its landing, or by its
    /// departure alone where another device landed it already (`landedElsewhere`); and
    /// the paths of those departures.
    static func landing(_ actions: [SyncAction], trees: SyncTrees) -> (actions: [SyncAction], departures: Set<String>) {
        let fetched = actions.lazy.compactMap { action -> String? in
            if case .apply(let version, nil) = action, version.state != nil { version.path } else { nil }
        }
        let deletions = deletedFolders(holding: fetched, trees: trees)
        guard !deletions.isEmpty else { return (actions, []) }  // most plans: one look at each fetch's folder
        let renames = publishedRenames(of: deletions, trees: trees)
        guard !renames.isEmpty else { return (actions, []) }
        let landings = landings(in: actions, trees: trees, renames: renames)
        guard !landings.isEmpty else { return (actions, []) }
        var departures: Set<String> = []
        let there = Set(landings.values.lazy.filter(\.isLandedAlready).map(\.to))
        let landed = actions.compactMap { action -> SyncAction? in
            if case .publish(let path, _, _, _) = action, there.contains(path) { return nil }  // the landing publishes it
            guard case .apply(let version, nil) = action, let landing = landings[version.path] else { return action }
            guard landedElsewhere(landing, trees: trees) else { return .land(landing) }
            departures.insert(version.path)
            return .publish(path: version.path, state: nil, parents: landing.leaving)
        }
        return (landed, departures)
    }

    /// Whether the stray's place holds it already, moved there from where the stray itself
    /// came from: two devices moved one item, each to where it knew the folder to be (b
    /// followed a's rename of `p` to `q` while a, renaming `q` on to `r`, landed b's item at
    /// `r`). Only the stray's departure is left to publish; landed again, it met itself, and
    /// was fetched into the old folder, which came back.
    static func landedElsewhere(_ landing: Landing, trees: SyncTrees) -> Bool {
        guard let origin = landing.version.movedFrom, let there = trees.histories[landing.to]?.winner else { return false }
        return there.movedFrom == origin && there.state == landing.version.state
    }

    /// This device's published renames of the folders that held what the plan records as
    /// deleted elsewhere and gone here (`.adopt` of a deletion): the rename took the item
    /// along, and its deletion landing (`Landing.isDeletion`) did not complete before the
    /// rename went out (a claim timed out; the folder held an editor's swap file, and was
    /// kept). `Landings` lands the deletion all the same; without this, the copy was
    /// published as new, and the deleted item came back.
    static func renames(aboveDeletionsIn actions: [SyncAction], trees: SyncTrees) -> [String: String] {
        guard let device = trees.device else { return [:] }
        // A look at each action's case first: binding every action's payload made Strays'
        // two scans of a first sync's plan of 101,000 fetches take 0.050 s, not 0.035 s
        // (release build, best of 7, beside a model check).
        let gone = actions.indices.lazy.compactMap { index -> String? in
            guard case .adopt(let path, _, nil) = actions[index] else { return nil }
            return path
        }
        let deletions = deletedFolders(holding: gone, trees: trees).filter { $0.value.id.device == device }
        return deletions.isEmpty ? [:] : publishedRenames(of: deletions, trees: trees)
    }

    /// The landings of the items the plan fetches below the folders `renames` took away, by
    /// the item's path: each where nothing is, nor arrives, or where it landed already
    /// (`Landings.landedBefore`); a folder before what it holds, and only with all it holds
    /// (`Landings.keepingWhole`). The new folder may have been renamed here since, and not
    /// published yet (`Landings.folderRenamesHere`): the item goes where that rename took it.
    static func landings(in actions: [SyncAction], trees: SyncTrees, renames: [String: String]) -> [String: Landing] {
        var made: Set<String> = []
        var claimed: Set<String> = []  // the places other landings and relocations of the plan take
        for action in actions {
            switch action {
            case .apply(let version, _): if version.state?.kind == .folder { made.insert(version.path) }
            case .land(let landing):
                claimed.insert(landing.to)
                if landing.version.state?.kind == .folder { made.insert(landing.to) }
            case .relocate(let relocation): claimed.insert(relocation.to)
            default: continue
            }
        }
        let renamedHere = Landings.folderRenamesHere(in: actions, trees: trees)
        let newPublishes = Landings.newPublishes(in: actions, trees: trees)
        var landings: [String: Landing] = [:]
        var staying: Set<String> = []
        for (version, published) in Landings.arrivals(in: actions, trees: trees, renames: renames) {
            let destination = published.map { Relocations.destination(of: $0, renames: renamedHere) ?? $0 }
            let there = destination.flatMap { Landings.landedBefore(version, at: $0, trees: trees, newPublishes: newPublishes) }
            guard let destination, !version.path.enclosingFolders.contains(where: staying.contains), !claimed.contains(destination),
                there != nil || Relocations.isFree(destination, trees: trees, made: made)
                    || landedElsewhere(Landing(version: version, to: destination), trees: trees)
            else {
                staying.insert(version.path)
                continue
            }
            claimed.insert(destination)
            if version.state?.kind == .folder { made.insert(destination) }
            let agreed = trees.base[destination].map { [$0.version] } ?? []  // a deletion (`isFree`)
            let twins = trees.histories[version.path]?.twins(of: version.id) ?? []
            landings[version.path] = Landing(version: version, to: destination, replacing: agreed, leaving: [version.id] + twins, source: there)
        }
        Landings.keepingWhole(&landings, staying: staying)
        return landings
    }

    /// The folders whose current version is a deletion, with it, that hold one of `paths`:
    /// each path's parent, and the parent's enclosing folders.
    ///
    /// The actions come mostly in path order, so that one fetch's folder is most often the
    /// last one's, looked at already: a first sync of 100,000 files in 1,000 folders looks
    /// up 1,000 histories, not 100,000 (each lookup makes the folder's path a string anew).
    static func deletedFolders(holding paths: some Sequence<String>, trees: SyncTrees) -> [String: VersionRecord] {
        var found: [String: VersionRecord] = [:]
        var last: Substring?
        for path in paths {
            guard let folder = path.folderBeforeLastSlash, folder != last else { continue }
            last = folder
            let parent = String(folder)
            guard found[parent] == nil, let deletion = trees.histories[parent]?.winner, deletion.state == nil else { continue }
            found[parent] = deletion
            for folder in parent.enclosingFolders where found[folder] == nil {
                if let deletion = trees.histories[folder]?.winner, deletion.state == nil { found[folder] = deletion }
            }
        }
        return found
    }

    /// Where each of the deleted folders went, as the mirror tells (`Strays`): old path →
    /// new path, for a folder whose deleting device moved files from below it to below one
    /// other folder only, before deleting it. A folder renamed on since (`p/sub` to `q/sub`,
    /// then `q/sub` to `q/sub2`) ends where the last rename took it; one whose last place is
    /// gone is left out.
    static func publishedRenames(of deletions: [String: VersionRecord], trees: SyncTrees) -> [String: String] {
        var found: [String: String] = [:]
        var asked = deletions
        for _ in 0..<Self.renamesFollowed where !asked.isEmpty {
            let step = renameTargets(of: asked, trees: trees)
            found.merge(step) { first, _ in first }
            asked = [:]
            for target in Set(step.values) where found[target] == nil {
                if let deletion = trees.histories[target]?.winner, deletion.state == nil { asked[target] = deletion }
            }
        }
        return found.compactMapValues { target in
            var end = target
            for _ in 0..<Self.renamesFollowed {
                guard let next = found[end] else { break }
                end = next
            }
            return trees.histories[end]?.winner?.state?.kind == .folder ? end : nil
        }
    }

    /// How many renames of one folder after another `publishedRenames` follows.
    static let renamesFollowed = 8

    /// How long before a folder's deletion its device may have moved the files that tell it
    /// was a rename, by that device's clock: a pass that renames a folder of 100,000 files
    /// publishes them within a minute or two.
    static let renameMilliseconds: Int64 = 10 * 60 * 1000

    /// Where each of the deleted folders went, one rename on: the files its deleting device
    /// moved from below it to below one folder only, which that device made, all shortly
    /// before deleting it (in the same pass, as a rename publishes). A file moved out into
    /// a folder that was there already (`mv p/keep.pdf Archive/`, then `rm -r p`), or long
    /// before, tells no rename.
    static func renameTargets(of deletions: [String: VersionRecord], trees: SyncTrees) -> [String: String] {
        var targets: [String: Set<String>] = [:]
        for history in trees.histories.values {
            for record in history.records where record.state?.kind == .file {
                guard let origin = record.movedFrom else { continue }
                for pair in FolderMoves.Pair.folders(of: record.path, leaving: origin) {
                    guard let deletion = deletions[pair.from], record.id.device == deletion.id.device, record.id.sequence < deletion.id.sequence,
                        deletion.time - record.time <= Self.renameMilliseconds
                    else { continue }
                    targets[pair.from, default: []].insert(pair.to)
                }
            }
        }
        var found: [String: String] = [:]
        for (folder, places) in targets {
            guard places.count == 1, let target = places.first, let deletion = deletions[folder],
                trees.histories[target]?.records.contains(where: { isMade($0, by: deletion) }) == true
            else { continue }
            found[folder] = target
        }
        return found
    }

    /// Whether `record` made a folder shortly before `deletion`, on the same device: the new
    /// folder of a rename that `deletion` ends.
    static func isMade(_ record: VersionRecord, by deletion: VersionRecord) -> Bool {
        record.state?.kind == .folder && record.id.device == deletion.id.device && record.id.sequence < deletion.id.sequence
            && deletion.time - record.time <= renameMilliseconds
    }

    /// This device's items, published and unchanged since, in folders another device's
    /// rename arriving in this plan takes away (`renames`), which that device did not know
    /// of (the plan does nothing at them): the other side of the meeting above. Such an
    /// item follows its folder (a `Relocation`), and the next round publishes it there as
    /// moved from where it was (`SyncPlan.pairingRenames`). Without this, the folder's
    /// deletion met it, and this device kept the folder and published it again.
    ///
    /// A folder holding anything the plan changes (an edit made here) stays, with all it
    /// holds: moved, it would not hold just what the relocation names, and the executor
    /// would skip it at every pass.
    static func published(below renames: [String: String], actions: [SyncAction], trees: SyncTrees) -> [(String, EntryState, String?)] {
        var acted = Set(actions.lazy.map(\.path))
        for action in actions {
            switch action {
            case .apply(let version, _): if let origin = version.movedFrom { acted.insert(origin) }
            case .follow(let followed): acted.insert(followed.from)
            default: continue
            }
        }
        let prefixes = renames.keys.map { $0 + "/" }  // a byte comparison per path, not its folders' names
        let found = trees.local.compactMap { path, state -> (String, EntryState, String?)? in
            guard prefixes.contains(where: { path.utf8.starts(with: $0.utf8) }), !acted.contains(path), let base = trees.base[path], base.state == state,
                trees.histories[path]?.winner?.id == base.version, trees.histories[path]?.conflicts.isEmpty == true
            else { return nil }
            return (path, state, nil)
        }
        guard found.contains(where: { $0.1.kind == .folder }) else { return found }
        let holdingChanges = Set(acted.lazy.filter { Relocations.destination(of: $0, renames: renames) != nil }.flatMap(\.enclosingFolders))
        return found.filter { !holdingChanges.contains($0.0) }
    }
}
