import SystemPackage

/// Merges raw watcher events per path and releases each path once it has settled
/// (DESIGN.md, decision 2): closed and quiet for `quietPeriod`, or, for a file a writer
/// keeps open, silent for `openFileTimeout`.
///
/// Editors save through temp files, renames and several writes; one save can produce a
/// dozen events on a path. Settling turns them into one `look` per path. Time is passed
/// in (monotonic nanoseconds) so the settler is deterministic and needs no clock.
///
/// Structural events (folder moves and rescans) are released at once, in order, after the
/// pending paths they affect were re-keyed: a pending `a/x` becomes `b/x` when `a` moves
/// to `b`, so the look lands where the file now is.
public struct EventSettler: Sendable {
    public var quietPeriod: UInt64
    public var openFileTimeout: UInt64

    private var pending: [FilePath: PendingPath] = [:]
    private var immediate: [SettledChange] = []
    private var cookies: [String] = []

    public init(quietPeriodNanoseconds: UInt64, openFileTimeoutNanoseconds: UInt64) {
        self.quietPeriod = quietPeriodNanoseconds
        self.openFileTimeout = openFileTimeoutNanoseconds
    }

    /// The number of paths waiting to settle.
    public var pendingCount: Int { pending.count }

    /// Records one event seen at monotonic time `now`.
    public mutating func record(_ event: WatchEvent, at now: UInt64) {
        switch event {
        case .touched(let path, let stillOpen):
            pending[path, default: PendingPath(lastEvent: now)].touch(at: now, stillOpen: stillOpen)
        case .removed(let path):
            pending[path, default: PendingPath(lastEvent: now)].remove(at: now)
        case .rescan(let path):
            immediate.append(.rescan(path))
        case .moved(let from, let to):
            rekeyPending(under: from, to: to)
            immediate.append(.moved(from: from, to: to))
        case .cookie(let name):
            cookies.append(name)
        }
    }

    /// Releases the structural changes and every path that has settled by `now`.
    public mutating func takeSettled(at now: UInt64) -> [SettledChange] {
        var settled = immediate
        immediate.removeAll()
        let due = pending.filter { $0.value.isSettled(at: now, quiet: quietPeriod, openTimeout: openFileTimeout) }
        for path in due.keys.sorted(by: { $0.string < $1.string }) {
            pending[path] = nil
            settled.append(.look(path))
        }
        return settled
    }

    /// Releases every pending path whose writer has closed it, quiet or not, plus the
    /// structural changes. Used when a sync cookie arrives: a change completed before the
    /// cookie must be visible to the query that is waiting for it. Files still open for
    /// writing stay pending: they are not complete yet.
    public mutating func takeCompleted() -> [SettledChange] {
        var settled = immediate
        immediate.removeAll()
        let closed = pending.filter { !$0.value.stillOpen }
        for path in closed.keys.sorted(by: { $0.string < $1.string }) {
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

    /// The earliest monotonic time at which `takeSettled` will release something, if any.
    public var nextDeadline: UInt64? {
        if !immediate.isEmpty || !cookies.isEmpty { return 0 }
        return pending.values.map { $0.deadline(quiet: quietPeriod, openTimeout: openFileTimeout) }.min()
    }

    private mutating func rekeyPending(under from: FilePath, to: FilePath) {
        let moved = pending.keys.filter { $0 == from || $0.starts(with: from) }
        for old in moved {
            guard let state = pending.removeValue(forKey: old) else { continue }
            var new = to
            new.append(old.components.dropFirst(from.components.count))
            pending[new] = state
        }
    }
}

/// What the settler knows about one path.
struct PendingPath: Sendable {
    var lastEvent: UInt64
    var stillOpen = false

    mutating func touch(at now: UInt64, stillOpen: Bool) {
        lastEvent = now
        self.stillOpen = stillOpen
    }

    mutating func remove(at now: UInt64) {
        lastEvent = now
        stillOpen = false
    }

    func deadline(quiet: UInt64, openTimeout: UInt64) -> UInt64 {
        lastEvent &+ (stillOpen ? openTimeout : quiet)
    }

    func isSettled(at now: UInt64, quiet: UInt64, openTimeout: UInt64) -> Bool {
        now >= deadline(quiet: quiet, openTimeout: openTimeout)
    }
}
