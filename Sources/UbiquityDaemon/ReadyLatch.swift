import Synchronization

/// Opens once, when the API server listens and READY has gone to systemd. Work that can
/// wait until then (building the index's secondary indexes and reading content after a
/// first scan, the first sync pass) waits for it rather than compete with the last steps
/// of the start-up for the cores: building the indexes alone takes about 0.6 s of CPU for
/// 100,000 items, and it began while the server was still starting.
final class ReadyLatch: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Lets every waiter go, and every later `wait()` return at once.
    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the latch is open, or when the calling task is cancelled.
    func wait() async {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                // A cancellation before this point found no waiter to resume: it is seen here.
                let goesNow = state.withLock { state in
                    if state.isOpen || Task.isCancelled { return true }
                    state.waiters[id] = waiter
                    return false
                }
                if goesNow { waiter.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
