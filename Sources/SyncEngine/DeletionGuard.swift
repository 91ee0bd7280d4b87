import SyncPlanning

/// Holds back a pass that would delete a large share of a container (an unmounted disk,
/// a wrong path, a mistake) until the user confirms with `ubq sync --confirm-deletes`.
///
/// Passes start as soon as changes are indexed, so an `rm -rf` of a large tree reaches
/// them in several steps, none of which alone would be large. So deletions wait until no
/// new one has appeared for `quiet`, and are weighed together; and the deletions this
/// device published within `window` count too (a burst with pauses in it).
public struct DeletionGuard: Sendable {
    /// The share of the container's items above which deletions wait for confirmation.
    public var share: Double
    /// Below this many deletions a pass never waits (deleting 3 of 4 files is normal).
    public var minimum: Int
    /// How long published deletions count toward the next passes' share.
    public var window: Duration
    /// How long no new deletion must appear before a burst of them is weighed.
    public var quiet: Duration

    public init(share: Double = 0.5, minimum: Int = 20, window: Duration = .seconds(60), quiet: Duration = .zero) {
        self.share = share
        self.minimum = minimum
        self.window = window
        self.quiet = quiet
    }

    /// The number of deletions held, or nil when the plan may go ahead. `recent` were
    /// published within the window (the base no longer holds them). `baseCount` (the
    /// container's size) is asked only when there are enough deletions to matter.
    func holds(plan: SyncPlan, recent: Int, baseCount: () throws -> Int) rethrows -> Int? {
        let deletions = plan.deletionCount
        let total = deletions + recent
        guard deletions > 0, total >= minimum else { return nil }
        guard Double(total) > share * Double(max(try baseCount() + recent, 1)) else { return nil }
        return deletions
    }
}

/// How many deletions were published when, for the mass-deletion guard's window.
struct RecentDeletions {
    private var published: [(at: ContinuousClock.Instant, count: Int)] = []

    mutating func add(_ count: Int, at now: ContinuousClock.Instant = .now) {
        guard count > 0 else { return }
        published.append((now, count))
    }

    /// The deletions published within `window` before `now`; older ones are forgotten.
    mutating func count(within window: Duration, at now: ContinuousClock.Instant = .now) -> Int {
        published.removeAll { now - $0.at > window }
        return published.reduce(0) { $0 + $1.count }
    }
}

/// Local deletions not published yet, and when the last new one appeared: a burst has
/// ended once none has appeared for a while.
struct DeletionBurst {
    private var seen: Set<String> = []
    private var lastNew: ContinuousClock.Instant?

    /// The deletions noted and not published yet.
    var paths: Set<String> { seen }

    /// Notes `deletions`; whether no new deletion has appeared for `quiet` (at once when
    /// `quiet` is zero).
    mutating func hasEnded(noting deletions: [String], quiet: Duration, at now: ContinuousClock.Instant = .now) -> Bool {
        for path in deletions where seen.insert(path).inserted { lastNew = now }
        guard let lastNew else { return true }
        return now - lastNew >= quiet
    }
}
