import RawPaths

/// The three trees of one container, as the planner sees them.
public struct SyncTrees: Sendable {
    public var local: [String: EntryState]
    public var base: [String: BaseEntry]
    public var histories: [String: PathHistory]
    /// The devices whose logs were read in full, or nil for every device (`Planner.plan`).
    public var logsReadInFull: Set<String>?
    /// Paths the scan left out that are still on the disk (an item that became ignored, one
    /// that could not be read, one back since the scan): no deletion of theirs follows a
    /// rename. The planner sees only `local`; the engine, which can look, fills this in.
    public var stillOnDisk: Set<String> = []
    /// This device's id, as its versions name it (`VersionID.device`): which published
    /// renames are its own (`Strays.renames(aboveDeletionsIn:)`). Nil: none is.
    public var device: String?

    public init(
        local: [String: EntryState], base: [String: BaseEntry], histories: [String: PathHistory], logsReadInFull: Set<String>? = nil
    ) {
        self.local = local
        self.base = base
        self.histories = histories
        self.logsReadInFull = logsReadInFull
    }
}

/// The actions of one pass over a whole container, in an order the executor can apply
/// one by one: folders are made before what goes in them and emptied before they go.
public struct SyncPlan: Sendable, Equatable {
    public var actions: [SyncAction]
    /// Folders another device renamed that this device may rename whole, each doing the
    /// work of the actions at its paths (`FolderMove`).
    public var folderMoves: [FolderMove]
    /// Files and links that would take the place of a folder still in use here (a device
    /// replaced the folder, or edited the file another device made a folder): the folder
    /// is published over each (`OccupiedFolders`), and each is kept beside the folder as a
    /// conflict copy, not only in the path's history.
    public var keptBeside: [VersionRecord]
    /// Deletions made here that follow another device's rename (`FollowedMove.Edit.localDeletion`,
    /// `FolderDeletionFollowing`): the path of each action → the path deleted here. They are
    /// this device's deletions, which the deletion guard weighs and holds like the others.
    public var followedDeletions: [String: String]
    /// New names of files renamed here whose publish waits for the next round
    /// (`holdingRenamedNames`), which must look at them.
    public var namesWaiting: [String] = []

    /// The renames made here that follow another device's (`FollowedMove.Edit.localRename`),
    /// as planned (`withoutPublishedDeletions` may take some out of `actions`).
    public var localRenames: [FollowedMove] = []

    /// The paths of `localRenames`, each one's old path and the rename's new one, and the
    /// names waiting (`namesWaiting`).
    public var localRenamePaths: [String] { localRenames.flatMap { [$0.from, $0.move.path] } + namesWaiting }

    /// The departures of items another device left in a folder whose rename is published
    /// and that a device already moved where the rename went (`Strays.landedElsewhere`):
    /// no deletion of this device's, which never had them, so the guard neither counts
    /// nor holds them.
    public var strayDepartures: Set<String> = []

    /// Deletions (by action path) already weighed in an earlier round of the same pass: the
    /// deletion published at a new path after a deletion followed the rename there. They
    /// count once, and a guard that let them through is not asked again.
    public var weighed: Set<String> = []

    public init(_ trees: SyncTrees, paths: Set<String>? = nil) {
        let candidates = paths ?? Set(trees.local.keys).union(trees.base.keys).union(trees.histories.keys)
        let sortedCandidates = candidates.sorted()
        var actions: [SyncAction] = []
        // Room for an action at each path, as a first sync has: growing the array to
        // 100,000 actions copied it into new memory 17 times, 0.11 s of a daemon's first
        // sync, most of it the first touch of those pages (perf). Room not filled is never
        // touched, so it costs no memory.
        actions.reserveCapacity(sortedCandidates.count)
        for path in sortedCandidates {
            if let action = Planner.plan(
                path: path, local: trees.local[path], base: trees.base[path], history: trees.histories[path], logsReadInFull: trees.logsReadInFull)
            {
                actions.append(action)
            }
        }
        let found = MoveFollowing.follows(in: trees, candidates: candidates)
        let renamedHere = Self.folderRenamesHere(beside: found, actions: actions, trees: trees)
        let follows = Self.without(renamedHere, found, trees: trees)
        actions = Self.following(follows, instead: actions)
        if follows.contains(where: { $0.edit == .localRename }) {
            localRenames = actions.compactMap { if case .follow(let followed) = $0, followed.edit == .localRename { followed } else { nil } }
        }
        let folderDeletions: [String: String]
        (actions, folderDeletions) = FolderDeletionFollowing.following(actions, trees: trees, renamedHere: renamedHere)
        followedDeletions = folderDeletions.merging(Self.followedDeletions(in: actions)) { first, _ in first }
        actions = Self.pairingRenames(actions, base: trees.base)
        actions = Relocations.relocating(actions, trees: trees)
        actions = Landings.landing(actions, trees: trees)
        (actions, strayDepartures) = Strays.landing(actions, trees: trees)
        (actions, namesWaiting) = Self.holdingRenamedNames(actions, base: trees.base)
        (actions, keptBeside) = OccupiedFolders.keeping(actions, trees: trees)
        Self.order(&actions)
        self.actions = actions
        folderMoves = FolderMoves.find(in: actions, trees: trees)
    }

    /// `actions` where each follow replaces what the planner would do at both of its paths
    /// (publish or fetch the edit at the old path, fetch the renamed content at the new one).
    static func following(_ follows: [FollowedMove], instead actions: [SyncAction]) -> [SyncAction] {
        guard !follows.isEmpty else { return actions }
        var claimed: Set<String> = []
        var kept: [FollowedMove] = []
        for followed in follows where !claimed.contains(followed.from) && !claimed.contains(followed.move.path) {
            claimed.formUnion([followed.from, followed.move.path])
            kept.append(followed)
        }
        return actions.filter { !claimed.contains($0.path) } + kept.map(SyncAction.follow)
    }

    /// The folders this device renamed and has not published (`Landings.folderRenamesHere`),
    /// looked for only when a rename or deletion made here follows another device's rename
    /// (`follows`): what they took along was neither renamed nor deleted here (`without`,
    /// `FolderDeletionFollowing`).
    static func folderRenamesHere(beside follows: [FollowedMove], actions: [SyncAction], trees: SyncTrees) -> [String: String] {
        guard follows.contains(where: { $0.edit == .localRename || $0.edit == .localDeletion }) else { return [:] }
        return Landings.folderRenamesHere(in: pairingRenames(actions, base: trees.base), trees: trees)
    }

    /// `follows` without the renames and deletions made here (`FollowedMove.Edit.localRename`,
    /// `.localDeletion`) that are this device's rename of a folder: it renamed `p` to `q`,
    /// which took the file from `p/sub` to `q/sub`, while another device renamed the file
    /// or its subfolder in `p`. The file is neither renamed nor deleted here (taken for a
    /// deletion when this device edited it too): the other device's rename lands in `q`
    /// (`Landing`). Composed as a rename here, the file ended in `q/sub` and the other
    /// device's new folder stayed in `p`; as a deletion, the other device's file went.
    /// A rename out of `p` (the folder renamed there too) still composes: the last name
    /// published wins.
    static func without(_ renamed: [String: String], _ follows: [FollowedMove], trees: SyncTrees) -> [FollowedMove] {
        guard !renamed.isEmpty else { return follows }
        return follows.filter { followed in
            // The file sits where this device's folder rename took it: neither renamed nor
            // deleted here by itself.
            guard let taken = Relocations.destination(of: followed.from, renames: renamed), trees.local[taken] != nil else { return true }
            switch followed.edit {
            case .localRename: return !followed.from.enclosingFolders.contains { renamed[$0] != nil && followed.move.path.below($0) != nil }
            case .localDeletion: return false
            default: return true
            }
        }
    }

    /// Deletions this device would publish: what the mass-deletion guard counts. Deletions
    /// arriving from the mirror are not counted: another device published them (and held
    /// them there if they were many), and they stay recoverable from the history.
    public var deletionCount: Int { deletionPaths.count }

    /// The paths whose deletion this device would publish. The departures of renames are
    /// not deletions: their content lives on at the new path (a renamed folder of many
    /// files is not a mass deletion), and holding them back would turn the rename into a
    /// copy on the other devices.
    public var deletionPaths: [String] { deletions.map(\.deleted) }

    /// Each deletion this device would publish (`deletionPaths`): the path of its action,
    /// and the path deleted here (the old path, for one that follows a rename).
    public var deletions: [(action: String, deleted: String)] {
        let departures = renameDepartures.union(strayDepartures)
        return actions.compactMap { action in
            if weighed.contains(action.path) { return nil }
            if let deleted = followedDeletions[action.path] { return (action.path, deleted) }
            guard case .publish(let path, nil, _, _) = action, !departures.contains(path) else { return nil }
            return (path, path)
        }
    }

    /// The deletions among `actions` that follow a rename, by action path (`followedDeletions`).
    static func followedDeletions(in actions: [SyncAction]) -> [String: String] {
        var found: [String: String] = [:]
        for case .follow(let followed) in actions where followed.edit == .localDeletion { found[followed.move.path] = followed.from }
        return found
    }

    /// The plan without the deletions this device would publish (`deletionPaths`): what
    /// runs while the mass-deletion guard holds them. A deletion that follows a rename
    /// leaves both its paths as they are: the old one's base (a folder's, which the rename's
    /// deletion replaced) is what tells, next time, that it was deleted here. So does a
    /// rename made here that follows one in a folder deleted here: the folder's deletion
    /// follows the other device's rename only in a plan that holds the rename's follow too
    /// (`FolderDeletionFollowing`).
    public func withoutPublishedDeletions() -> SyncPlan {
        var copy = self
        let departures = renameDepartures.union(strayDepartures)
        let followed = Set(followedDeletions.keys).union(followedDeletions.values)
        copy.followedDeletions = [:]
        copy.actions = actions.filter { action in
            if weighed.contains(action.path) { return true }
            if followed.contains(action.path) { return false }
            if case .follow(let rename) = action, rename.edit == .localRename, rename.from.enclosingFolders.contains(where: followed.contains) {
                return false
            }
            guard case .publish(let path, nil, _, _) = action else { return true }
            return departures.contains(path)
        }
        return copy
    }

    /// The paths renames published in this plan leave: each renamed file's old path, and
    /// what went with the folders they were in. A folder's rename is published item by item
    /// (`FolderMove`), and only files name where they came from; so a deleted item also
    /// left with a rename when the plan publishes an item at its path below the new folder
    /// (`FolderMoves.Pair`: the renamed folder, the empty folders and links in it) and
    /// nothing deleted for good lies below it. Without this, renaming a folder held its
    /// old path back as a deletion burst (other devices renamed its files one by one and
    /// removed it a second later), and a folder of many folders as a mass deletion.
    private var renameDepartures: Set<String> {
        var files: Set<String> = []
        var published: Set<String> = []
        var deleted: [String] = []
        var moves: [String: Set<String>] = [:]  // a folder the renamed files left → where they went
        for case .publish(let path, let state, _, let origin) in actions {
            guard state != nil else {
                deleted.append(path)
                continue
            }
            published.insert(path)
            guard let origin else { continue }
            files.insert(origin)
            for pair in FolderMoves.Pair.folders(of: path, leaving: origin) { moves[pair.from, default: []].insert(pair.to) }
        }
        guard !moves.isEmpty else { return files }
        let others = deleted.filter { !files.contains($0) }
        let went = others.filter { Self.arrives($0, moves: moves, published: published) }
        var holdsDeletion: Set<String> = []  // folders below which something is deleted for good
        for path in Set(others).subtracting(went) {
            var folder = Substring(path)
            while let parent = folder.folderBeforeLastSlash, holdsDeletion.insert(String(parent)).inserted { folder = parent }
        }
        return files.union(went.filter { !holdsDeletion.contains($0) })
    }

    /// Whether the plan publishes an item at `path`'s place below a folder that `moves`
    /// says one of `path`'s folders (or `path` itself) was renamed to.
    private static func arrives(_ path: String, moves: [String: Set<String>], published: Set<String>) -> Bool {
        var folder = Substring(path)
        while true {
            let rest = path[folder.endIndex...]  // "" or "/" and the names below `folder`
            if let targets = moves[String(folder)], targets.contains(where: { published.contains($0 + rest) }) {
                return true
            }
            guard let parent = folder.folderBeforeLastSlash else { return false }
            folder = parent
        }
    }

    /// `actions` without the publishes of the names this device gave files whose old names
    /// follow another device's rename (`FollowedMove.Edit.localRename`), where they do not
    /// move with their folder (`Relocation`): a file moved out of the folder, or into the
    /// folder renamed here too. They wait a round: then the follow has moved the old name's
    /// base to the rename's new path, and each publish pairs with its departure from there
    /// (`pairingRenames`). Published at once, each was a new file, and the departure a
    /// deletion the guard weighed; other devices fetched the content instead of renaming.
    static func holdingRenamedNames(_ actions: [SyncAction], base: [String: BaseEntry]) -> (actions: [SyncAction], held: [String]) {
        var renamed: [String: Int] = [:]  // content → how many renames made here follow
        for case .follow(let followed) in actions where followed.edit == .localRename {
            if let content = followed.move.state?.sha256 { renamed[content, default: 0] += 1 }
        }
        guard !renamed.isEmpty else { return (actions, []) }
        // A new name that moves with its folder is such a name already: no other file of
        // that content (a copy) is taken for it. (A landing's source never is one: another
        // device renamed that file, and no rename of it here follows.)
        // (A file renamed here into a folder renamed elsewhere is not: it pairs with its
        // own departure, `Relocation.departures`.)
        for case .relocate(let relocation) in actions where relocation.departures.isEmpty {
            if let content = relocation.state.sha256, let count = renamed[content] { renamed[content] = count - 1 }
        }
        var kept: [SyncAction] = []
        var held: [String] = []
        for action in actions {
            if case .publish(let path, let state?, _, nil) = action, base[path]?.state == nil, let content = state.sha256,
                let waiting = renamed[content], waiting > 0
            {
                renamed[content] = waiting - 1
                held.append(path)
                continue
            }
            kept.append(action)
        }
        return (kept, held)
    }

    /// A local file that vanished from one path while a new file with the same content
    /// appeared at another was renamed: the arrival is published with `movedFrom`, so
    /// other devices rename their copy instead of fetching it again. A path where nothing
    /// was agreed on is new, also when the base there is a deletion (a file moved back
    /// where it was once): its publish names that deletion as parent.
    static func pairingRenames(_ actions: [SyncAction], base: [String: BaseEntry]) -> [SyncAction] {
        var departures: [String: [String]] = [:]  // content → paths it left
        for case .publish(let path, nil, _, _) in actions {
            if let content = base[path]?.state?.sha256 { departures[content, default: []].append(path) }
        }
        guard !departures.isEmpty else { return actions }
        for content in departures.keys { departures[content]?.sort(by: >) }
        return actions.map { action in
            guard case .publish(let path, let state?, let parents, nil) = action, parents.isEmpty || base[path]?.state == nil,
                let content = state.sha256, let origin = departures[content]?.popLast()
            else { return action }
            return .publish(path: path, state: state, parents: parents, movedFrom: origin)
        }
    }

    /// Makes and replaces first, parents before children; then removals, children before
    /// parents, a folder's replacement by a file or a link among them (rename(2) cannot
    /// put one in a folder's place until the folder is empty); by path within a depth.
    ///
    /// The actions come in path order (the planner walks the sorted paths; follows go
    /// last), so a stable counting sort by rank (`OrderRank`) leaves each rank in path
    /// order: only a rank found out of order is sorted by path. Then the actions are
    /// copied in that order, each rank's from front to back. On a first sync of 100,000
    /// files, on the pass's thread while the other core waited, this took 0.060-0.072 s
    /// against 0.083-0.097 s for a comparison sort of every action's key followed by swaps
    /// of the actions along the permutation's cycles. The swaps alone took 0.055-0.061 s
    /// (they jump around 10 MB of actions), the copy in order 0.031-0.038 s.
    private static func order(_ actions: inout [SyncAction]) {
        var (ordered, ranges) = OrderRank.ranks(of: actions).stableOrder()
        for range in ranges {
            let inPathOrder = zip(range.dropLast(), range.dropFirst()).allSatisfy { actions[ordered[$0]].path < actions[ordered[$1]].path }
            if !inPathOrder { ordered[range].sort { actions[$0].path < actions[$1].path } }
        }
        actions = ordered.map { actions[$0] }
    }
}

/// Where each action goes in a plan (`SyncPlan.order`), as a small number: makes by
/// depth, shallowest first, then removals by depth, deepest first.
private struct OrderRank {
    /// Each action's rank, in the actions' order.
    let values: [Int]
    /// How many ranks there may be: each depth twice, once for makes and once for removals.
    let count: Int

    static func ranks(of actions: [SyncAction]) -> OrderRank {
        let depths = actions.map(\.path.depth)
        let deepest = depths.max() ?? 0
        let values = zip(actions, depths).map { action, depth in
            action.removes || action.replacedFolder != nil ? deepest + 1 + (deepest - depth) : depth
        }
        return OrderRank(values: values, count: 2 * (deepest + 1))
    }

    /// The actions' indices by rank (a counting sort: within a rank, in their order), and
    /// where each rank's indices are in that list.
    func stableOrder() -> (indices: [Int], ranges: [Range<Int>]) {
        var starts = [Int](repeating: 0, count: count + 1)
        for rank in values { starts[rank + 1] += 1 }
        for rank in 0..<count { starts[rank + 1] += starts[rank] }
        let ranges = (0..<count).map { starts[$0]..<starts[$0 + 1] }
        var indices = [Int](repeating: 0, count: values.count)
        for (index, rank) in values.enumerated() {
            indices[starts[rank]] = index
            starts[rank] += 1
        }
        return (indices, ranges)
    }
}

extension SyncAction {
    /// Whether the action is a rename made here that follows another device's.
    public var isLocalRename: Bool {
        if case .follow(let followed) = self { followed.edit == .localRename } else { false }
    }

    /// Whether the action takes something away from the disk or the mirror.
    var removes: Bool {
        switch self {
        case .publish(_, let state, _, _): state == nil
        case .apply(let version, _): version.state == nil
        case .adopt(_, _, let state): state == nil
        case .land(let landing): landing.isDeletion  // a copy goes; any other landing makes the new path
        case .follow, .relocate: false  // it makes the new path: it goes with the makes, after its folders
        }
    }

    /// For an action that makes the disk hold something else than a folder (a file, a
    /// link, nothing) where it holds a folder now: the version applied and the folder.
    var replacedFolder: (version: VersionRecord, folder: EntryState)? {
        guard case .apply(let version, let local?) = self, local.kind == .folder, version.state?.kind != .folder else { return nil }
        return (version, local)
    }
}

extension String {
    var depth: Int { utf8.count { $0 == UInt8(ascii: "/") } }

    /// The folders this path is in, innermost first.
    var enclosingFolders: [String] {
        var folders: [String] = []
        var rest = Substring(self)
        while let folder = rest.folderBeforeLastSlash {
            folders.append(String(folder))
            rest = folder
        }
        return folders
    }
}
