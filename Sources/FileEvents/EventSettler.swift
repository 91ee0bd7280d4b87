import RawPaths

/// Merges raw watcher events per path and releases each path once it has settled
/// (DESIGN.md, decision 2): closed and quiet for `quietPeriod`, or, for a file a writer
/// keeps open, silent for `openFileTimeout`.
///
/// Editors save through temp files, renames and several writes; one save can produce a
/// dozen events on a path. Settling turns them into one `look` per path. Time is passed
/// in (monotonic nanoseconds) so the settler is deterministic and needs no clock.
///
/// Each event appends its path and deadline to one of two queues (quiet, open). Events
/// come in time order and each queue uses one fixed delay, so each queue is ordered by
/// deadline: settling pops from the fronts and costs O(settled paths), whatever the
/// number pending. An entry whose path saw a later event is stale and skipped.
///
/// Structural events (folder moves and rescans) are released at once, in order, after the
/// pending paths they affect were re-keyed: a pending `a/x` becomes `b/x` when `a` moves
/// to `b`, so the look lands where the file now is.
public struct EventSettler: Sendable {
    public let quietPeriod: UInt64
    public let openFileTimeout: UInt64

    private var pending: [RawPath: PendingPath] = [:]
    private var quietQueue = DeadlineQueue()
    private var openQueue = DeadlineQueue()
    private var immediate: [SettledChange] = []
    private var cookies: [String] = []

    public init(quietPeriodNanoseconds: UInt64, openFileTimeoutNanoseconds: UInt64) {
        quietPeriod = quietPeriodNanoseconds
        openFileTimeout = openFileTimeoutNanoseconds
    }

    /// The number of paths waiting to settle.
    public var pendingCount: Int { pending.count }

    /// Records one event seen at monotonic time `now`.
    public mutating func record(_ event: WatchEvent, at now: UInt64) {
        switch event {
        case .touched(let path, let stillOpen): schedule(path, at: now, stillOpen: stillOpen)
        case .removed(let path): schedule(path, at: now, stillOpen: false)
        case .rescan(let path): immediate.append(.rescan(path))
        case .moved(let from, let to):
            rekeyPending(under: from, to: to)
            immediate.append(.moved(from: from, to: to))
        case .cookie(let name): cookies.append(name)
        }
    }

    /// Releases the structural changes and every path that has settled by `now`, in the
    /// order they settled.
    public mutating func takeSettled(at now: UInt64) -> [SettledChange] {
        var settled = immediate
        immediate.removeAll()
        Self.release(from: &quietQueue, pending: &pending, dueBy: now, into: &settled)
        Self.release(from: &openQueue, pending: &pending, dueBy: now, into: &settled)
        return settled
    }

    /// Pops the queue's due entries; those still current for their path settle it.
    private static func release(from queue: inout DeadlineQueue, pending: inout [RawPath: PendingPath], dueBy now: UInt64, into settled: inout [SettledChange]) {
        while let entry = queue.front, entry.deadline <= now {
            queue.popFront()
            guard let state = pending[entry.path], state.deadline == entry.deadline else { continue }
            pending[entry.path] = nil
            settled.append(.look(entry.path))
        }
    }

    /// Releases every pending path whose writer has closed it, quiet or not, plus the
    /// structural changes. Used when a sync cookie arrives: a change completed before the
    /// cookie must be visible to the query that is waiting for it. Files still open for
    /// writing stay pending: they are not complete yet.
    public mutating func takeCompleted() -> [SettledChange] {
        var settled = immediate
        immediate.removeAll()
        for (path, state) in pending where !state.stillOpen {
            pending[path] = nil
            settled.append(.look(path))
        }
        return settled
    }

    /// The cookies seen since the last call.
    public mutating func takeCookies() -> [String] {
        defer { cookies.removeAll() }
        return cookies
    }

    /// The earliest monotonic time at which `takeSettled` may release something, if any.
    /// (It may release nothing then, when that entry went stale; the next call says more.)
    public var nextDeadline: UInt64? {
        if !immediate.isEmpty || !cookies.isEmpty { return 0 }
        if pending.isEmpty { return nil }
        return [quietQueue.front?.deadline, openQueue.front?.deadline].compactMap { $0 }.min()
    }

    private mutating func schedule(_ path: RawPath, at now: UInt64, stillOpen: Bool) {
        let deadline = now &+ (stillOpen ? openFileTimeout : quietPeriod)
        pending[path] = PendingPath(deadline: deadline, stillOpen: stillOpen)
        if stillOpen { openQueue.append(path, deadline) } else { quietQueue.append(path, deadline) }
    }

    private mutating func rekeyPending(under from: RawPath, to: RawPath) {
        let moved = pending.keys.filter { $0.isSame(orBelow: from) }
        for old in moved {
            guard let state = pending.removeValue(forKey: old) else { continue }
            let new = old.rebased(from: from, to: to)
            pending[new] = state
            if state.stillOpen { openQueue.append(new, state.deadline) } else { quietQueue.append(new, state.deadline) }
        }
    }
}

/// What the settler knows about one path: when it settles, and whether a writer still
/// has it open.
struct PendingPath: Sendable {
    var deadline: UInt64
    var stillOpen: Bool
}

/// A FIFO of (path, deadline) with amortized O(1) pops.
struct DeadlineQueue: Sendable {
    private var entries: [(path: RawPath, deadline: UInt64)] = []
    private var head = 0

    var front: (path: RawPath, deadline: UInt64)? { head < entries.count ? entries[head] : nil }

    mutating func append(_ path: RawPath, _ deadline: UInt64) {
        entries.append((path, deadline))
    }

    mutating func popFront() {
        head += 1
        if head > 1024 && head * 2 > entries.count {
            entries.removeFirst(head)
            head = 0
        }
    }
}
