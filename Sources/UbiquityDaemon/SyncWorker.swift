import APIModel
import Dispatch
import SyncEngine

/// Runs every call into the sync engine on one serial queue: the engine is not
/// thread-safe, and its file coordination blocks, which must not happen on Swift's
/// cooperative threads. `afterEachCall` runs on the queue after each call.
final class SyncWorker: Sendable {
    private let engine: SyncEngine
    private let queue = DispatchQueue(label: "ubqd.sync")
    private let afterEachCall: (@Sendable (SyncEngine) -> Void)?

    init(engine: SyncEngine, afterEachCall: (@Sendable (SyncEngine) -> Void)? = nil) {
        self.engine = engine
        self.afterEachCall = afterEachCall
    }

    func run<T: Sendable>(_ body: @Sendable @escaping (SyncEngine) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            enqueue { engine in Result { try body(engine) } } then: { continuation.resume(with: $0) }
        }
    }

    /// Runs `work` on the queue, then `afterEachCall`, then hands `answer` what `work` returned.
    func enqueue<R>(_ work: @Sendable @escaping (SyncEngine) -> R, then answer: @Sendable @escaping (R) -> Void) {
        queue.async { [engine, afterEachCall] in
            let result = work(engine)
            afterEachCall?(engine)
            answer(result)
        }
    }

    /// Status snapshots are safe from anywhere (the engine guards them with a lock).
    var status: [ContainerSyncStatus] { engine.status() }
    var mirrorSilence: Duration? { engine.mirrorSilence }
    var device: (id: String, name: String) { engine.device }
    var mirror: String { engine.layout.root }
}


