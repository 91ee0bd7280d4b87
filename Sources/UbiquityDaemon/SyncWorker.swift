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
            queue.async { [engine, afterEachCall] in
                let result = Result { try body(engine) }
                afterEachCall?(engine)
                continuation.resume(with: result)
            }
        }
    }

    /// Status snapshots are safe from anywhere (the engine guards them with a lock).
    var status: [ContainerSyncStatus] { engine.status() }
    var device: (id: String, name: String) { engine.device }
    var mirror: String { engine.layout.root }
}


