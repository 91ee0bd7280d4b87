import Synchronization

/// A gate tasks wait at while it is shut. Each `shut()` is undone by one `open()`: the
/// gate is open when every shutting has been. Waiters go when it opens, or when their
/// task is cancelled (a shutdown must not hang on a gate).
final class Gate: Sendable {
    private struct State {
        var shuttings: Int
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state: Mutex<State>

    init(shut: Bool) {
        state = Mutex(State(shuttings: shut ? 1 : 0))
    }

    /// Holds back the waits from now on, until the matching `open()`.
    func shut() {
        state.withLock { $0.shuttings += 1 }
    }

    /// Undoes one `shut()` (an open gate stays open); the last one lets every waiter go.
    func open() {
        let waiters = state.withLock { state in
            state.shuttings = max(state.shuttings - 1, 0)
            guard state.shuttings == 0 else { return [CheckedContinuation<Void, Never>]() }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// How many waits the gate holds back now (what tests wait for).
    var waiting: Int { state.withLock { $0.waiters.count } }

    /// Returns once the gate is open (at once if it is), or when the calling task is cancelled.
    func wait() async {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                // A cancellation before this point found no waiter to resume: it is seen here.
                let goesNow = state.withLock { state in
                    if state.shuttings == 0 || Task.isCancelled { return true }
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

extension Gate {
    /// Returns once `first` or `second` is open (at once if one is), or when the calling
    /// task is cancelled.
    static func firstOpen(_ first: Gate, _ second: Gate) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await first.wait() }
            group.addTask { await second.wait() }
            await group.next()
            group.cancelAll()  // the other wait returns at its cancellation
        }
    }
}

/// Opens once, when the API server listens and READY has gone to systemd. Work that can
/// wait until then (building the index's secondary indexes and reading content after a
/// first scan, the first sync pass) waits for it rather than compete with the last steps
/// of the start-up for the cores: building the indexes alone takes about 0.6 s of CPU for
/// 100,000 items, and it began while the server was still starting.
final class ReadyLatch: Sendable {
    private let gate = Gate(shut: true)

    /// Lets every waiter go, and every later `wait()` return at once.
    func open() { gate.open() }

    /// Returns once the latch is open, or when the calling task is cancelled.
    func wait() async { await gate.wait() }
}
