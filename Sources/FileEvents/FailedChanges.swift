import RawPaths

/// Settled changes the index could not take (a full disk, an I/O error): they are applied
/// again later, with a growing delay, so that the index catches up once the cause is gone
/// instead of missing what changed on the disk until the next start.
///
/// Retrying is safe because every change is a look at the disk, not a replay: a `.look`
/// or `.rescan` finds the current state whatever happened meanwhile. A move may have been
/// half applied when its batch failed, so it comes back as rescans of both places.
public struct FailedChanges: Sendable {
    /// What to apply again, each once, in the order it first failed.
    public private(set) var changes: [SettledChange] = []
    /// Why the latest attempt failed; nil once everything pending was applied.
    public private(set) var lastError: String?
    /// When (monotonic nanoseconds) the pending changes are due; nil when none are pending.
    public private(set) var retryAt: UInt64?
    private var queued: Set<SettledChange> = []
    private var failuresInARow = 0

    public static let firstDelay: UInt64 = 1_000_000_000
    public static let longestDelay: UInt64 = 30_000_000_000

    public init() {}

    /// `batch` failed with `error` at `now`: keeps it for later and returns the delay
    /// before the next attempt (doubling from `firstDelay` to `longestDelay`).
    @discardableResult
    public mutating func failed(_ batch: some Sequence<SettledChange>, error: String, at now: UInt64) -> UInt64 {
        for change in batch {
            for redo in Self.redo(change) where queued.insert(redo).inserted { changes.append(redo) }
        }
        lastError = error
        let delay = min(Self.firstDelay << min(failuresInARow, 16), Self.longestDelay)
        failuresInARow += 1
        retryAt = now + delay
        return delay
    }

    /// The pending changes if they are due at `now` (they leave the set: apply them, then
    /// report the outcome with `failed` or `succeeded`); else none.
    public mutating func takeDue(at now: UInt64) -> [SettledChange] {
        guard let retryAt, now >= retryAt else { return [] }
        defer {
            changes = []
            queued = []
            self.retryAt = nil
        }
        return changes
    }

    /// A batch was applied: once nothing is pending any more, the error is over.
    public mutating func succeeded() {
        guard changes.isEmpty else { return }
        lastError = nil
        failuresInARow = 0
    }

    private static func redo(_ change: SettledChange) -> [SettledChange] {
        switch change {
        case .look, .rescan: [change]
        case .moved(let from, let to): [.rescan(from), .rescan(to)]
        }
    }
}
