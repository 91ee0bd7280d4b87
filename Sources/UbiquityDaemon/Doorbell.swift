import Synchronization

/// A wait that another thread can cut short: the sync loop sleeps its poll interval, but a
/// batch of local changes rings and the pass starts at once (a new file on device A need
/// not wait for the next tick before it is published).
///
/// A ring while nobody waits is kept, so the next wait returns at once; several rings
/// before a wait count as one.
final class Doorbell: Sendable {
    private let state = Mutex(State())

    private struct State {
        var rung = false
        var sleeper: Task<Void, Never>?
    }

    func ring() {
        state.withLock { state in
            if let sleeper = state.sleeper {
                sleeper.cancel()
                state.sleeper = nil
            } else {
                state.rung = true
            }
        }
    }

    /// Returns after `interval`, on a ring, or when the calling task is cancelled.
    func wait(upTo interval: Duration) async {
        let sleeper = Task { _ = try? await Task.sleep(for: interval) }
        state.withLock { state in
            if state.rung {
                sleeper.cancel()
            } else {
                state.sleeper = sleeper
            }
            state.rung = false
        }
        await withTaskCancellationHandler {
            await sleeper.value
        } onCancel: {
            sleeper.cancel()
        }
        state.withLock { $0.sleeper = nil }
    }
}
