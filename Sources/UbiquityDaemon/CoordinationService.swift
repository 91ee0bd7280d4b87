import Coordination
import Foundation
import Indexing
import Logging
import PresenterPlanning
import RawPaths
import ServiceLifecycle

/// The presenter hub's background work: tells presenters what the index pipeline applied
/// (changes by programs that do not coordinate), ends the accesses of processes that died
/// mid-access, and now and then deletes lock files nobody used for a while (ubqd's own
/// coordinated reads create one per document it indexes).
struct CoordinationService: Service {
    let hub: PresenterHub
    let outcomes: AsyncStream<[PathOutcome]>
    let coordinator: FileCoordinator
    /// The root as the watcher names it, and as claims name it.
    let paths: CanonicalRoot
    let logger: Logger
    var sweepInterval: Duration = .seconds(1)
    /// Lock files idle this long are deleted, checked as often (a large download leaves one
    /// per file written; each holds a page of tmpfs memory until then).
    var pruneInterval: Duration = .seconds(60)

    func run() async throws {
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await forwardOutcomes() }
                group.addTask { await maintain() }
                await group.next()
                group.cancelAll()
            }
        } onGracefulShutdown: {}
    }

    private func forwardOutcomes() async {
        for await batch in outcomes {
            if Task.isCancelled || Task.isShuttingDownGracefully { return }
            await hub.observe(batch.map(observed))
        }
    }

    private func maintain() async {
        var sincePrune: Duration = .zero
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            try? await Task.sleep(for: sweepInterval)
            await hub.sweep()
            sincePrune += sweepInterval
            if sincePrune >= pruneInterval {
                sincePrune = .zero
                prune()
            }
        }
    }

    private func prune() {
        do {
            let deleted = try coordinator.pruneLockFiles(unusedFor: pruneInterval)
            if deleted > 0 { logger.debug("deleted \(deleted) idle lock files in \(coordinator.lockDirectory.path)") }
        } catch {
            logger.warning("cannot prune lock files: \(error)")
        }
    }

    func observed(_ outcome: PathOutcome) -> ObservedChange {
        switch outcome {
        case .appeared(let path): .appeared(canonical(path))
        case .changed(let path): .changed(canonical(path))
        case .removed(let path): .removed(canonical(path))
        case .rescanned(let path): .rescanned(canonical(path))
        case .moved(let from, let to): .moved(from: canonical(from), to: canonical(to))
        }
    }

    private func canonical(_ path: RawPath) -> [UInt8] {
        paths.canonical(path)
    }
}
