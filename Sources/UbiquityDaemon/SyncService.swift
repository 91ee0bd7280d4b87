import FileEvents
import Foundation
import Indexing
import Logging
import RawPaths
import ServiceLifecycle
import SyncEngine
import SyncPlanning
import Synchronization
import UbiquitySettings

/// Runs sync passes (DESIGN.md, decisions 3 to 6): a full pass at start and every
/// `full_pass_interval_s` (the scan is the truth, the watcher a hint); in between, passes
/// that look only at what changed: the paths the index pipeline just applied (as soon as it
/// applies them), and those other devices changed (their logs are polled every
/// `poll_interval_ms`: inotify does not see other machines' writes over a network filesystem). Stops between passes on graceful shutdown; a pass in flight
/// finishes, and each of its steps is atomic, so nothing is left half done.
final class SyncService: Service {
    let worker: SyncWorker
    let layout: ContainerLayout
    let logger: Logger
    private let changes = Mutex(PendingChanges())
    /// Rung by each batch of local changes: the loop's wait ends and the pass starts.
    private let doorbell = Doorbell()
    /// How often the mirror is polled and everything looked at; a reload may change them
    /// (between passes: the loop reads them each time round).
    private let pacing: Mutex<Pacing>

    struct Pacing {
        var pollInterval: Duration
        var fullPassInterval: Duration

        init(_ settings: SyncSettings) {
            pollInterval = .milliseconds(settings.pollMilliseconds)
            fullPassInterval = .seconds(settings.fullPassSeconds)
        }
    }

    struct PendingChanges {
        var paths: [ContainerID: Set<RawPath>] = [:]
        var needsFullPass = true
        var ignoreRulesChanged: Set<ContainerID> = []
    }

    init(worker: SyncWorker, layout: ContainerLayout, settings: SyncSettings, logger: Logger) {
        self.worker = worker
        self.layout = layout
        pacing = Mutex(Pacing(settings))
        self.logger = logger
    }

    /// Called by the index pipeline with each batch of settled local changes it applied.
    func noteLocalChanges(_ settled: [SettledChange]) {
        changes.withLock { pending in
            for change in settled {
                switch change {
                case .look(let path), .rescan(let path): note(path, in: &pending)
                case .moved(let from, let to):
                    note(from, in: &pending)
                    note(to, in: &pending)
                }
            }
        }
        doorbell.ring()
    }

    private func note(_ rootRelative: RawPath, in pending: inout PendingChanges) {
        guard let location = layout.locate(rootRelative) else { return }
        if location.relativePath.isEmpty {
            pending.needsFullPass = true
        } else if location.relativePath == RawPath(IgnoreCatalog.fileName) {
            pending.ignoreRulesChanged.insert(location.container)
            pending.needsFullPass = true
        } else {
            pending.paths[location.container, default: []].insert(location.relativePath)
        }
    }

    func run() async throws {
        var lastFullPass = ContinuousClock.now
        // Not at once: a daemon restarted often still collects, but start-up stays quick.
        var nextCollection = ContinuousClock.now + pacing.withLock { $0.fullPassInterval }
        while !Task.isShuttingDownGracefully {
            let pacing = pacing.withLock { $0 }
            var pending = takePending()
            if ContinuousClock.now - lastFullPass > pacing.fullPassInterval { pending.needsFullPass = true }
            let news = try await worker.run { $0.mirrorHasNews() }
            if pending.needsFullPass || !pending.paths.isEmpty || news {
                let reports = try await pass(pending, confirmDeletes: false, settled: false)
                if pending.needsFullPass { lastFullPass = ContinuousClock.now }  // (a pass made full by its size does not count)
                retryLater(reports)
            }
            if ContinuousClock.now >= nextCollection {
                try await collectStore()
                nextCollection = ContinuousClock.now + Self.collectionInterval
            }
            // A long configured interval must not hold up a stop.
            let interval = pacing.pollInterval
            await cancelWhenGracefulShutdown { [doorbell] in await doorbell.wait(upTo: interval) }
        }
    }

    /// How often the mirror's store is collected (content only expired versions named).
    static let collectionInterval: Duration = .seconds(86_400)

    private func collectStore() async throws {
        let report = try await worker.run { $0.collectStore() }
        for problem in report.problems { logger.warning("\(problem)") }
        guard report.deleted > 0 else { return }
        let freed = ByteCountFormatter.string(fromByteCount: report.bytesFreed, countStyle: .file)
        logger.info("collected the mirror's store: \(report.deleted) of \(report.objects) objects held only expired versions; \(freed) freed")
    }

    /// Files a pass left because they changed a moment ago are looked at again next time
    /// (only they: one busy file must not turn every pass into a full one).
    private func retryLater(_ reports: [ContainerID: PassReport]) {
        changes.withLock { pending in
            for (container, report) in reports where !report.deferred.isEmpty {
                pending.paths[container, default: []].formUnion(report.deferred)
            }
        }
    }

    /// A reloaded configuration changed the extra ignore patterns: the engine takes them
    /// between passes, and the next pass is full.
    func replaceIgnorePatterns(_ patterns: [String]) async throws {
        try await worker.run { try $0.replaceExtraIgnorePatterns(patterns) }
        changes.withLock { $0.needsFullPass = true }
    }

    /// A reloaded configuration changed the `[sync]` table: the pacing applies from the
    /// next time round, the deletion guard from the next pass, the retention from the next
    /// listing of versions or collection.
    func replaceSettings(_ settings: SyncSettings) async throws {
        pacing.withLock { $0 = Pacing(settings) }
        try await worker.run {
            $0.replaceDeletionGuard(DeletionGuard(settings))
            $0.replaceRetention(HistoryRetention(settings))
        }
    }

    /// `ubq sync`: a pass now over what changed (everything with `full`), once the caller
    /// has waited for the watcher, so files changed a moment ago need not wait.
    func passNow(confirmDeletes: Bool, full: Bool) async throws {
        var pending = takePending()
        pending.needsFullPass = pending.needsFullPass || full
        retryLater(try await pass(pending, confirmDeletes: confirmDeletes, settled: true))
    }

    private func takePending() -> PendingChanges {
        changes.withLock { pending in
            defer { pending = PendingChanges(needsFullPass: false) }
            return pending
        }
    }

    /// Above this many changed paths a full pass is cheaper than looking each one up
    /// (after a large download, say): one walk instead of thousands of lookups.
    static let largestScope = 2_000

    private func pass(_ pending: PendingChanges, confirmDeletes: Bool, settled: Bool) async throws -> [ContainerID: PassReport] {
        let ignoreChanges = pending.ignoreRulesChanged
        let tooMany = pending.paths.values.contains { $0.count > Self.largestScope }
        let scope = pending.needsFullPass || tooMany ? nil : pending.paths
        return try await worker.run { engine in
            for container in ignoreChanges { engine.ignoreRulesChanged(container) }
            return engine.passAll(confirmDeletes: confirmDeletes, settled: settled, changed: scope)
        }
    }
}

extension HistoryRetention {
    /// The retention the `[sync]` settings describe (0 days: forever).
    init(_ settings: SyncSettings) {
        self = settings.historyRetentionDays == 0 ? .forever : .days(settings.historyRetentionDays)
    }
}

extension DeletionGuard {
    /// The guard the `[sync]` settings describe. Deletions wait for a second without new
    /// ones: an `rm -rf` of 100,000 files takes a few seconds, with no pause that long.
    init(_ settings: SyncSettings) {
        self.init(share: Double(settings.deletionGuardPercent) / 100, minimum: settings.deletionGuardMinimum, quiet: .seconds(1))
    }
}
