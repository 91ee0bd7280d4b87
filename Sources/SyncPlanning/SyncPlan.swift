/// The three trees of one container, as the planner sees them.
public struct SyncTrees: Sendable {
    public var local: [String: EntryState]
    public var base: [String: BaseEntry]
    public var histories: [String: PathHistory]

    public init(local: [String: EntryState], base: [String: BaseEntry], histories: [String: PathHistory]) {
        self.local = local
        self.base = base
        self.histories = histories
    }
}

/// The actions of one pass over a whole container, in an order the executor can apply
/// one by one: folders are made before what goes in them and emptied before they go.
public struct SyncPlan: Sendable, Equatable {
    public var actions: [SyncAction]

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
            if let action = Planner.plan(path: path, local: trees.local[path], base: trees.base[path], history: trees.histories[path]) {
                actions.append(action)
            }
        }
        actions = Self.following(MoveFollowing.follows(in: trees, candidates: candidates), instead: actions)
        actions = OccupiedFolders.keeping(actions, trees: trees)
        actions = Self.pairingRenames(actions, base: trees.base)
        Self.order(&actions)
        self.actions = actions
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

    /// Deletions this device would publish: what the mass-deletion guard counts. Deletions
    /// arriving from the mirror are not counted: another device published them (and held
    /// them there if they were many), and they stay recoverable from the history.
    public var deletionCount: Int { deletionPaths.count }

    /// The paths whose deletion this device would publish. The departures of renames are
    /// not deletions: their content lives on at the new path (a renamed folder of many
    /// files is not a mass deletion), and holding them back would turn the rename into a
    /// copy on the other devices.
    public var deletionPaths: [String] {
        let departures = renameDepartures
        return actions.compactMap { action in
            guard case .publish(let path, nil, _, _) = action, !departures.contains(path) else { return nil }
            return path
        }
    }

    /// The plan without the deletions this device would publish (`deletionPaths`): what
    /// runs while the mass-deletion guard holds them.
    public func withoutPublishedDeletions() -> SyncPlan {
        var copy = self
        let departures = renameDepartures
        copy.actions = actions.filter { action in
            guard case .publish(let path, nil, _, _) = action else { return true }
            return departures.contains(path)
        }
        return copy
    }

    /// The paths renames published in this plan leave.
    private var renameDepartures: Set<String> {
        Set(actions.compactMap { action in
            guard case .publish(_, _?, _, let origin?) = action else { return nil }
            return origin
        })
    }

    /// A local file that vanished from one path while a new file with the same content
    /// appeared at another was renamed: the arrival is published with `movedFrom`, so
    /// other devices rename their copy instead of fetching it again.
    static func pairingRenames(_ actions: [SyncAction], base: [String: BaseEntry]) -> [SyncAction] {
        var departures: [String: [String]] = [:]  // content → paths it left
        for case .publish(let path, nil, _, _) in actions {
            if let content = base[path]?.state?.sha256 { departures[content, default: []].append(path) }
        }
        guard !departures.isEmpty else { return actions }
        for content in departures.keys { departures[content]?.sort(by: >) }
        return actions.map { action in
            guard case .publish(let path, let state?, let parents, nil) = action, parents.isEmpty,
                let content = state.sha256, let origin = departures[content]?.popLast()
            else { return action }
            return .publish(path: path, state: state, parents: parents, movedFrom: origin)
        }
    }

    /// Makes and replaces first, parents before children; then removals, children before
    /// parents, a folder's replacement by a file or a link among them (rename(2) cannot
    /// put one in a folder's place until the folder is empty); by path within a depth.
    /// Each action's key is computed once: comparing the actions themselves recounted both
    /// depths and copied both actions at each of the 1.7 million comparisons of a first
    /// sync's 100,000 actions (0.6 s of its pass). The keys are sorted, and the actions
    /// then moved into their places where they are: not copied into a new array, whose
    /// memory would be touched for the first time.
    private static func order(_ actions: inout [SyncAction]) {
        let keys = actions.map(OrderKey.init)
        actions.rearrange(keys.indices.sorted { keys[$0] < keys[$1] })
    }
}

extension Array {
    /// Puts at each position `i` the element that was at `sources[i]` (a permutation of
    /// the indices), in place: each cycle of the permutation is walked once, with a swap
    /// per element.
    mutating func rearrange(_ sources: [Int]) {
        precondition(sources.count == count, "a permutation of every index")
        var sources = sources  // a position whose element is in place is marked as its own source
        for start in sources.indices where sources[start] != start {
            // The element first at `start` travels along the cycle; where the cycle comes
            // back to `start`, it is where it belongs.
            var current = start
            while sources[current] != start {
                let next = sources[current]
                swapAt(current, next)
                sources[current] = current
                current = next
            }
            sources[current] = current
        }
    }
}

/// Where an action goes in a plan (`SyncPlan.order`).
private struct OrderKey: Comparable {
    let removes: Bool
    let depth: Int
    let path: String

    init(_ action: SyncAction) {
        removes = action.removes || action.replacedFolder != nil
        depth = action.path.depth
        path = action.path
    }

    static func < (a: Self, b: Self) -> Bool {
        if a.removes != b.removes { return !a.removes }
        if a.depth != b.depth { return a.removes ? a.depth > b.depth : a.depth < b.depth }
        return a.path < b.path
    }
}

extension SyncAction {
    /// Whether the action takes something away from the disk or the mirror.
    var removes: Bool {
        switch self {
        case .publish(_, let state, _, _): state == nil
        case .apply(let version, _): version.state == nil
        case .adopt(_, _, let state): state == nil
        case .follow: false  // it makes the new path: it goes with the makes, after its folders
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
}
