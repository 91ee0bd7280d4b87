import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// Runs sync passes (issue: "Sync engine"): once at start, then whenever the index applied
/// local changes, another device wrote to the mirror (its logs are polled: inotify does not
/// see other machines' writes over a network filesystem), or files left for later have
/// settled. Stops between passes on graceful shutdown; a pass in flight finishes, and each
/// of its steps is atomic, so nothing is left half done.
final class SyncService: Service {
    let worker: SyncWorker
    let pollInterval: Duration
    let logger: Logger
    private let localChanges = Atomic<Bool>(true)

    init(worker: SyncWorker, pollInterval: Duration, logger: Logger) {
        self.worker = worker
        self.pollInterval = pollInterval
        self.logger = logger
    }

    /// Called by the index pipeline after it applied local changes.
    func noteLocalChange() {
        localChanges.store(true, ordering: .relaxed)
    }

    func run() async throws {
        var retryDeferred = false
        while !Task.isShuttingDownGracefully {
            let local = localChanges.exchange(false, ordering: .relaxed)
            let news = try await worker.run { $0.mirrorHasNews() }
            if local || news || retryDeferred {
                let reports = try await worker.run { $0.passAll() }
                retryDeferred = reports.values.contains { $0.deferred > 0 }
            }
            try? await Task.sleep(for: pollInterval)
        }
    }
}
