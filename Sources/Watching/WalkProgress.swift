import Foundation
import RawPaths

/// How far the watcher's first walk of the tree has come, for a scan that runs alongside
/// it: a folder may be read once it is watched, so that nothing changed after the scan read
/// it goes unseen. The walk visits folders in the order a path-ordered scan enters them,
/// and does less per folder (no status of each item), so the scan seldom waits.
public final class WalkProgress: @unchecked Sendable {
    // @unchecked: the state is touched only with `condition` locked.
    private let condition = NSCondition()
    private var handled: Set<RawPath> = []
    private var finished = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Blocks until the watcher has dealt with `folder` (absolute): watched it, or found
    /// it gone or unwatchable (then it is polled, or it was never there), or until the
    /// walk has ended (a folder made after the walk listed its parent is watched when its
    /// creation event arrives).
    public func waitUntilWatched(_ folder: RawPath) {
        condition.lock()
        defer { condition.unlock() }
        while !finished && !handled.contains(folder) { condition.wait() }
    }

    /// Returns once the whole walk has ended.
    public func finishedWalking() async {
        await withCheckedContinuation { continuation in
            condition.lock()
            defer { condition.unlock() }
            if finished { continuation.resume() } else { waiting.append(continuation) }
        }
    }

    func markHandled(_ folder: RawPath) {
        condition.lock()
        handled.insert(folder)
        condition.broadcast()
        condition.unlock()
    }

    func finish() {
        condition.lock()
        finished = true
        handled = []  // (no longer needed: every wait returns now)
        let resumed = waiting
        waiting = []
        condition.broadcast()
        condition.unlock()
        for continuation in resumed { continuation.resume() }
    }
}
