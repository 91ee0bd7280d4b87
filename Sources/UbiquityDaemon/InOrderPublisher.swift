import Synchronization

/// Runs async work handed over from a synchronous thread (the sync engine's), one piece
/// at a time and in the order given: each piece waits for the one before it. The caller
/// never waits.
final class InOrderPublisher: Sendable {
    private let last = Mutex<Task<Void, Never>?>(nil)

    func enqueue(_ work: @escaping @Sendable () async -> Void) {
        last.withLock { last in
            let previous = last
            last = Task {
                await previous?.value
                await work()
            }
        }
    }

    /// Returns once every piece handed over before the call is done.
    func drain() async {
        await last.withLock { $0 }?.value
    }
}
