import FileEvents
import Foundation
import Indexing
import Logging
import Watching
import MetadataIndex
import RawPaths

/// Everything between the watcher and the index, serialized in one actor: raw events go
/// into the settler; settled changes go to the indexer; each applied batch goes to the
/// live queries; sync cookies wake the queries waiting for them once every change
/// completed before the cookie is in the index.
actor IndexPipeline {
    private var settler: EventSettler
    private let indexer: Indexer
    private let index: MetadataIndex
    private var liveQueries: LiveQueries
    private let root: RawPath
    private let logger: Logger
    private var cookieWaiters: [String: CheckedContinuation<Void, any Error>] = [:]
    private var abandonedCookies: Set<String> = []
    private var cookieCounter = 0
    private var changeObserver: (@Sendable ([SettledChange]) -> Void)?
    /// Whether items recorded by the start-up scan may still wait for their content, and
    /// the queries waiting for it to be read.
    private var contentPassRunning = false
    private var contentWaiters: [CheckedContinuation<Void, Never>] = []
    /// Opens when a query first waits for the content: from then on the `ContentService`
    /// reads on while a long sync pass runs, since someone waits for what it reads.
    nonisolated let contentAwaited = Gate(shut: true)
    private var outcomeObserver: (@Sendable ([PathOutcome]) -> Void)?
    /// Changes the index could not take (a full disk): applied again after a delay.
    private var failed = FailedChanges()
    /// Why the latest content write failed; nil once one succeeds.
    private var contentError: String?

    init(indexer: Indexer, index: MetadataIndex, root: RawPath, settleMilliseconds: Int, logger: Logger) {
        self.indexer = indexer
        self.index = index
        liveQueries = LiveQueries(logger: logger)
        self.root = root
        self.logger = logger
        settler = EventSettler(
            quietPeriodNanoseconds: UInt64(settleMilliseconds) * 1_000_000,
            openFileTimeoutNanoseconds: 2_000_000_000)
    }

    /// The first reconciliation: the index becomes equal to the disk, from the items'
    /// status and names; their content is read after READY (`ContentService`). Each folder
    /// is read only once `watcher`'s first walk has watched it, the two running at once.
    /// Returns what it changed.
    func reconcileEverything(alongside watcher: InotifyWatcher) -> ReconcileStatistics {
        let walk = watcher.walk
        run([.rescan(RawPath())]) { try indexer.reconcileEverything(readingContent: false, beforeReading: { walk.waitUntilWatched($0) }) }
        startContentPass()
        retryDeferred()
        return indexer.takeStatistics()
    }

    /// Records content the `ContentService` read, for the items that still wait for it.
    /// Records content read for pending items; false if it could not be written (a full
    /// disk): the items stay pending, and the content service reads them again later.
    func fillContent(_ snapshots: [ItemSnapshot]) -> Bool {
        guard !snapshots.isEmpty else { return true }
        var written = true
        do {
            try indexer.fillContent(snapshots)
            contentError = nil
        } catch {
            written = false
            if contentError == nil { logger.error("content of \(snapshots.count) items could not be recorded: \(error); read again later") }
            contentError = "\(error)"
        }
        liveQueries.publish(indexer.takeAppliedChanges(), index: index)
        indexer.journalsChanges = !liveQueries.isEmpty
        return written
    }

    /// The sync engine changed the ubiquity attributes of these rows: live queries look
    /// at them again (an item starts matching `…IsUploadedKey == YES`, say).
    func publishSyncState(_ changes: AppliedChanges) {
        liveQueries.publish(changes, index: index)
    }

    /// Writes the ubiquity attributes a sync pass found, and shows live queries the rows
    /// they changed. An actor step of its own: a pass hands them over (`SyncService`) after
    /// its changes were announced by `apply`, so they are written once the index holds
    /// those changes' rows, new ones included; written earlier, a new file's row would miss
    /// its attributes until the next full pass.
    func recordSyncState(_ state: SyncedState, container: String) {
        do {
            liveQueries.publish(try index.applySyncState(container: container, state), index: index)
        } catch {
            logger.error("cannot record the sync state of \(container) in the index: \(error)")
        }
    }

    /// The sync engine's `indexStateHandoff`: each pass's attributes go to
    /// `recordSyncState`, in order with the other index updates `updates` carries.
    nonisolated func syncStateHandoff(through updates: InOrderPublisher) -> @Sendable (SyncedState, String) -> Void {
        { state, container in updates.enqueue { await self.recordSyncState(state, container: container) } }
    }

    /// Items wait for their content (the start-up scan left it): queries that need it wait
    /// until `finishContentPass()`.
    func startContentPass() {
        contentPassRunning = true
    }

    /// The content pass is over (or stopped): queries waiting for content answer.
    func finishContentPass() {
        contentPassRunning = false
        for waiter in contentWaiters { waiter.resume() }
        contentWaiters.removeAll()
    }

    /// Returns once the start-up scan's pending content is read, at once if it is.
    func waitForContent() async {
        guard contentPassRunning else { return }
        contentAwaited.open()
        await withCheckedContinuation { contentWaiters.append($0) }
    }

    func record(_ event: WatchEvent) {
        settler.record(event, at: Self.now())
        switch event {
        case .cookie: applyCompleted()
        case .rescan, .moved: applySettled()  // structural changes act at once
        case .touched, .removed: break  // these wait for the settle loop
        }
    }

    /// Uses new extra ignore patterns (a reloaded configuration): every container is
    /// reconciled with them, and live queries see the items that came and went.
    func replaceIgnorePatterns(_ patterns: [String]) -> ReconcileStatistics {
        run([.rescan(RawPath())]) { try indexer.replaceExtraIgnorePatterns(patterns) }
        liveQueries.publish(indexer.takeAppliedChanges(), index: index)
        indexer.journalsChanges = !liveQueries.isEmpty
        return indexer.takeStatistics()
    }

    /// Applies every path that has settled by now, and failed changes that are due again.
    func applySettled() {
        let now = Self.now()
        apply(failed.takeDue(at: now) + settler.takeSettled(at: now))
    }

    /// Nanoseconds from now until the next path settles or failed changes are due, if any.
    func nanosecondsUntilNextDeadline() -> UInt64? {
        let deadlines = [settler.nextDeadline, failed.retryAt].compactMap { $0 }
        guard let deadline = deadlines.min() else { return nil }
        let now = Self.now()
        return deadline > now ? deadline - now : 0
    }

    /// Why the index could not take the latest changes, while some still wait to be applied again.
    /// Why the index is behind the disk now: changes or content it could not record.
    var indexError: String? { failed.lastError ?? contentError }

    var pendingCount: Int { settler.pendingCount }

    private func applyCompleted() {
        apply(settler.takeCompleted())
        for name in settler.takeCookies() {
            unlink(root.appending(name).readable)
            abandonedCookies.remove(name)
            cookieWaiters.removeValue(forKey: name)?.resume()
        }
    }

    /// At most this many settled changes are indexed in one step (one transaction), and
    /// shown to live queries: a burst's first items show while the rest are indexed.
    static let changesPerStep = 500

    /// Indexes `changes` step by step, once the sync service has heard of them all: a pass
    /// reads the disk itself, and need not wait for the index. Indexing 500 changes took
    /// 70 ms, which each burst's first pass waited when it heard of each step as it was
    /// indexed. 1,000 edits, medians of 20 rounds interleaved (scratch inc.py): 0.293 s,
    /// then 0.278 s with each step announced before it was indexed, 0.258 s once the pass
    /// handed its attributes back (`recordSyncState`, written after these steps: one actor
    /// turn) instead of waiting behind the indexer's write; then 0.252 s against 0.243 s
    /// (15 rounds) with the whole burst announced first, in one pass instead of two.
    private func apply(_ changes: [SettledChange]) {
        if !changes.isEmpty { changeObserver?(changes) }
        var rest = changes[...]
        while !rest.isEmpty {
            applyStep(Array(rest.prefix(Self.changesPerStep)))
            rest = rest.dropFirst(Self.changesPerStep)
        }
    }

    private func applyStep(_ changes: [SettledChange]) {
        run(changes) { try indexer.apply(changes) }
        liveQueries.publish(indexer.takeAppliedChanges(), index: index)
        indexer.journalsChanges = !liveQueries.isEmpty  // publishing may have dropped the last client
        // Other names of hard-linked files that changed: no event named them.
        let otherNames = indexer.takeOtherNamesChanged()
        if !otherNames.isEmpty { changeObserver?(otherNames.map(SettledChange.look)) }
        let outcomes = indexer.takeOutcomes()
        if !outcomes.isEmpty { outcomeObserver?(outcomes) }
        retryDeferred()
    }

    /// Items whose content another process's claim kept the indexer from reading go back
    /// into the settler, to be looked at once they settle again: never lost, never waited on.
    private func retryDeferred() {
        let deferred = indexer.takeDeferred()
        guard !deferred.isEmpty else { return }
        logger.debug("\(deferred.count) items claimed by another process, looking again after the settle period")
        let now = Self.now()
        for path in deferred { settler.record(.touched(path, stillOpen: false), at: now) }
    }

    /// `observer` gets what each applied batch did to each item (file presenters hear of
    /// changes nobody coordinated through it).
    func observeOutcomes(_ observer: @escaping @Sendable ([PathOutcome]) -> Void) {
        outcomeObserver = observer
        indexer.recordsOutcomes = true
    }

    /// `observer` gets each burst of settled local changes before the index takes them
    /// (the sync service looks at those paths in its next pass), and the other names of
    /// hard-linked files that changed once the index found them.
    func observeChanges(_ observer: @escaping @Sendable ([SettledChange]) -> Void) {
        changeObserver = observer
    }

    /// Gathers a live query's items and registers its client for the updates of every
    /// batch applied after this step (one actor step: no batch falls in between).
    /// Returns the client and how many items were gathered (`takeGathered` hands them over).
    func subscribe(_ plan: QueryPlan, capacity: Int, hangUp: @escaping @Sendable () -> Void) throws -> (LiveSubscriber, Int) {
        let subscription = try liveQueries.subscribe(plan, index: index, capacity: capacity, hangUp: hangUp)
        indexer.journalsChanges = true
        return subscription
    }

    func takeGathered(_ id: Int) -> [TrackedItem] {
        liveQueries.takeGathered(id)
    }

    func unsubscribe(_ id: Int) {
        liveQueries.unsubscribe(id)
        indexer.journalsChanges = !liveQueries.isEmpty
    }

    /// Runs `work`, which applies `changes`. If it fails, they are kept to be applied
    /// again later (`FailedChanges`): the index must not stay behind the disk for good
    /// because a write failed once (a full disk, an I/O error).
    private func run(_ changes: [SettledChange], _ work: () throws -> Void) {
        do {
            try work()
            failed.succeeded()
        } catch {
            guard !changes.isEmpty else { return logger.error("indexing failed: \(error)") }
            let delay = failed.failed(changes, error: "\(error)", at: Self.now())
            logger.error("indexing failed: \(error); \(failed.changes.count) changes are applied again in \(delay / 1_000_000_000) s")
        }
    }

    /// A fresh cookie name for `createCookieAndWait` (watchman's sync cookies).
    func nextCookieName() -> String {
        cookieCounter += 1
        return "\(WatchEvent.cookiePrefix)\(getpid())-\(cookieCounter)"
    }

    /// Creates the cookie file in the root and returns once the watcher has delivered it
    /// and every change completed before it is in the index. The waiter is registered in
    /// the same actor step that creates the file, so the cookie cannot arrive unawaited.
    func createCookieAndWait(_ name: String) async throws {
        guard !abandonedCookies.contains(name) else { return }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let path = root.appending(name).readable
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard fd >= 0 else {
                continuation.resume(throwing: DaemonError.syscall("create sync cookie", path: path))
                return
            }
            close(fd)
            cookieWaiters[name] = continuation
        }
    }

    /// Gives up on a cookie (the watcher did not deliver it in time).
    func abandonCookie(_ name: String) {
        abandonedCookies.insert(name)
        cookieWaiters.removeValue(forKey: name)?.resume()
        unlink(root.appending(name).readable)
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
