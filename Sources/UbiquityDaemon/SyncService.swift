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
/// that look only at what changed: the paths the index pipeline is taking (as soon as it
/// starts on them), and those other devices changed (their logs are polled every
/// `poll_interval_ms`: inotify does not see other machines' writes over a network filesystem). Stops between passes on graceful shutdown; a pass in flight
/// finishes, and each of its steps is atomic, so nothing is left half done.
final class SyncService: Service {
    let worker: SyncWorker
    let layout: ContainerLayout
    let logger: Logger
    private let changes = Mutex(PendingChanges())
    /// When to try again a pass that stopped on a full disk; nil when none did. Space made
    /// elsewhere on the disk is no change sync hears of.
    private let spaceRetry = Mutex<ContinuousClock.Instant?>(nil)
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

    /// Opens at READY: the first pass waits for it.
    private let ready: ReadyLatch
    /// Carries the passes' ubiquity attributes to the index pipeline (the engine's
    /// `indexStateHandoff`): a settled pass returns once they are written.
    private let indexUpdates: InOrderPublisher

    init(
        worker: SyncWorker, layout: ContainerLayout, settings: SyncSettings, ready: ReadyLatch,
        indexUpdates: InOrderPublisher, logger: Logger
    ) {
        self.worker = worker
        self.layout = layout
        self.ready = ready
        self.indexUpdates = indexUpdates
        pacing = Mutex(Pacing(settings))
        self.logger = logger
    }

    /// Called by the index pipeline with each burst of settled local changes it takes.
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
        guard let location = layout.locate(rootRelative), !SyncEngine.isStagingFile(rootRelative) else { return }
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
        await cancelWhenGracefulShutdown { [ready] in await ready.wait() }
        var lastFullPass = ContinuousClock.now
        // Not at once: a daemon restarted often still collects, but start-up stays quick.
        var nextCollection = ContinuousClock.now + pacing.withLock { $0.fullPassInterval }
        while !Task.isShuttingDownGracefully {
            let pacing = pacing.withLock { $0 }
            let retryDue = spaceRetry.withLock { due in due.map { $0 <= .now } ?? false }
            let fullDue = ContinuousClock.now - lastFullPass > pacing.fullPassInterval || retryDue
            let ranFull = try await passOverPending(confirmDeletes: false, settled: false, full: fullDue, unlessIdle: true)
            if ranFull == true { lastFullPass = ContinuousClock.now }  // (a pass the engine widened does not count)
            if ContinuousClock.now >= nextCollection {
                try await collectStore()
                nextCollection = ContinuousClock.now + Self.collectionInterval
            }
            // A long configured interval must not hold up a stop.
            let interval = pacing.pollInterval
            await cancelWhenGracefulShutdown { [doorbell] in await doorbell.wait(upTo: interval) }
        }
        try await worker.run { $0.waitForViews() }  // the last pass's view, written in the background
        await indexUpdates.drain()
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
    /// (only they: one busy file must not turn every pass into a full one). A pass that
    /// stopped on a full disk is tried again after `spaceRetryInterval` (the full pass
    /// interval, if shorter).
    private func retryLater(_ reports: [ContainerID: PassReport]) {
        changes.withLock { pending in
            for (container, report) in reports where !report.deferred.isEmpty {
                pending.paths[container, default: []].formUnion(report.deferred)
            }
        }
        let interval = min(Self.spaceRetryInterval, pacing.withLock { $0.fullPassInterval })
        spaceRetry.withLock { $0 = reports.values.contains(where: \.pausedForSpace) ? .now + interval : nil }
    }

    /// How long a pass that stopped on a full disk waits to be tried again, unless a change
    /// comes first. Each try costs a pass and a look at the free space (`DiskRoom`: sync
    /// writes no copy that cannot fit).
    static let spaceRetryInterval: Duration = .seconds(30)

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
    /// has waited for the watcher, so files changed a moment ago need not wait. Returns
    /// once the index shows what the passes found.
    /// On a mirror that stops answering it fails as the user's other requests do
    /// (`SyncWorker.runForUser`): a pass still queued is dropped, which loses nothing, since
    /// the loop passes again once the mirror answers; one under way runs on.
    func passNow(confirmDeletes: Bool, restoreDeletes: Bool = false, full: Bool) async throws {
        _ = try await passOverPending(
            confirmDeletes: confirmDeletes, restoreDeletes: restoreDeletes, settled: true, full: full, unlessIdle: false,
            forUser: true)
        await indexUpdates.drain()
    }

    private func takePending() -> PendingChanges {
        changes.withLock { pending in
            defer { pending = PendingChanges(needsFullPass: false) }
            return pending
        }
    }

    /// A pass over the changes pending when it starts on the worker's queue (everything
    /// with `full`); returns whether it looked at everything, or nil, with `unlessIdle`,
    /// when nothing changed here or in the mirror and no earlier pass or read of the logs
    /// left paths to look at (`SyncEngine.hasPathsToLookAt`).
    /// The changes are taken on the queue, not before queueing the pass, and what the pass
    /// left for later goes back before the queue's next step: so whatever a `ubq sync`
    /// queued behind it finds pending includes every file a pass took but did not sync.
    /// Otherwise a `ubq sync` could find nothing to do and return before the file it was
    /// called for was synced: the loop's pass, queued first, took the file (taken before
    /// queueing), or took it a moment after its close and left it to settle (put back
    /// after the pass's return). Both were seen with a 1 GiB copy.
    private func passOverPending(
        confirmDeletes: Bool, restoreDeletes: Bool = false, settled: Bool, full: Bool, unlessIdle: Bool, forUser: Bool = false
    ) async throws -> Bool? {
        let pass: @Sendable (SyncEngine) -> Bool? = { [self] engine in
            var pending = takePending()
            pending.needsFullPass = pending.needsFullPass || full
            if unlessIdle && !pending.needsFullPass && pending.paths.isEmpty && !engine.hasPathsToLookAt() && !engine.mirrorHasNews() {
                return nil
            }
            for container in pending.ignoreRulesChanged { engine.ignoreRulesChanged(container) }
            // Many changed paths make the pass look at everything, when that costs less
            // than looking each one up: the engine decides (`SyncPass.widened`), since it
            // weighs them against the size of the container's base.
            let scope = pending.needsFullPass ? nil : pending.paths
            retryLater(engine.passAll(confirmDeletes: confirmDeletes, restoreDeletes: restoreDeletes, settled: settled, changed: scope))
            return pending.needsFullPass
        }
        return try await forUser ? worker.runForUser(pass) : worker.run(pass)
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
