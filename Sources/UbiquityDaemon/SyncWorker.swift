import APIModel
import Dispatch
import SyncEngine

/// Runs every call into the sync engine on one serial queue: the engine is not
/// thread-safe, and its file coordination blocks, which must not happen on Swift's
/// cooperative threads.
final class SyncWorker: Sendable {
    private let engine: SyncEngine
    private let queue = DispatchQueue(label: "ubqd.sync")

    init(engine: SyncEngine) {
        self.engine = engine
    }

    func run<T: Sendable>(_ body: @Sendable @escaping (SyncEngine) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { [engine] in continuation.resume(with: Result { try body(engine) }) }
        }
    }

    /// Status snapshots are safe from anywhere (the engine guards them with a lock).
    var status: [ContainerSyncStatus] { engine.status() }
    var device: (id: String, name: String) { engine.device }
    var mirror: String { engine.layout.root }
}


