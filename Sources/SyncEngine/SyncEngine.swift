import CStatx
import Coordination
import APIModel
import Foundation
import Indexing
import Logging
import MetadataIndex
import RawPaths
import SyncPlanning
import UbiquitySettings

/// Keeps every container in sync with the mirror. All work happens in `passAll()` and the
/// resolution calls, which the daemon runs one at a time on its sync thread; status
/// snapshots can be read from anywhere meanwhile.
public final class SyncEngine: @unchecked Sendable {
    public let layout: MirrorLayout
    public let device: (id: String, name: String)
    let database: SyncDatabase
    private let ignore: IgnoreCatalog
    let coordinator: FileCoordinator?
    private let logger: Logger
    private var deletionGuard: DeletionGuard
    private let quietNanoseconds: Int64
    /// How close to a scan a file's change may be for its signature to be kept
    /// (`LocalSignature.racyWindowNanoseconds`; tests set it to make either side certain).
    var racyWindowNanoseconds = LocalSignature.racyWindowNanoseconds
    /// How long before a folder's deletion an item below it may have gone and still come
    /// back with it (`restoreFolder`; tests shorten it).
    var deletedWithFolderMilliseconds = SyncEngine.deletedWithFolderMilliseconds
    /// How many changes a pass commits together (`ChangeBatch`; tests make it small, for
    /// several batches of a few files).
    var batchCapacity = ChangeBatch.defaultCapacity
    /// How long replaced and deleted versions stay restorable (and their content stored).
    public private(set) var retention: HistoryRetention
    /// Set by crash tests only.
    public var faults: FaultInjection? {
        didSet { views = ViewLinker(layout: layout, device: device.id, faults: faults) }
    }
    /// How this device's views in the mirror link to the store (decided once).
    private var views: ViewLinker
    /// Writes the views after the passes, off the sync thread (`writesViewsInBackground`).
    var viewWriter: ViewWriter?
    /// Where the ubiquity attributes go after each pass (the daemon's metadata index).
    public var index: MetadataIndex?
    /// Hears which index rows each pass changed the attributes of (the daemon's live
    /// queries look at them again). Called on the sync thread, and on the index's writer
    /// for the marks a pass makes as it goes.
    public var indexStateObserver: (@Sendable (AppliedChanges) -> Void)?
    /// When set, each pass's final attributes go here instead of into `index` on the sync
    /// thread: the daemon's index pipeline writes them after the index steps under way.
    /// The thread need not wait for them, nor behind the indexer's writes: a 1,000-file
    /// re-sync's second pass started 60 ms late waiting there.
    public var indexStateHandoff: (@Sendable (_ state: SyncedState, _ container: String) -> Void)?
    /// Hears, on the sync thread, when a pass turns out long (a first sync: its scan reads
    /// `SyncPass.longPassFrom` files or more, or a round carries out that many actions)
    /// and when the pass ends (`LongWork`): the daemon holds its content reader back
    /// meanwhile, which took 4.6 s of CPU on 2 cores during a first sync of 100,000 files.
    public var longPassObserver: (@Sendable (_ running: Bool) -> Void)?
    private var containers: [ContainerID: ContainerSync] = [:]
    /// The mirror the base was synced with (`checkMirror`).
    private var knownMirror: MirrorIdentity?
    /// What was read of the mirror belongs to another one than `knownMirror`: forgotten
    /// before the next pass (`startOver`).
    private var needsStartOver = false
    /// Containers whose last pass failed or was cut short: their next pass is full.
    private var needsFullPass: Set<ContainerID> = []
    /// Why this device is not registered in the mirror, which it may only read (nil when
    /// it is): said among every container's problems while it holds.
    private var unregistered: String?
    /// This device's record in the mirror was found (or written) under its current name.
    private var isRegistered = false
    /// Why sync is paused for every container (the mirror cannot be used), as last logged:
    /// the daemon tries every poll, 10 times a second, and logs the pause once.
    private var pausedBy: String?
    let statusLock = NSLock()
    private var statuses: [ContainerID: ContainerSyncStatus] = [:]
    /// The counts of the passes running now (under `statusLock`).
    private var inFlight: [ContainerID: PassProgress] = [:]
    /// The problems of the last view written in the background, by container identifier
    /// (under `statusLock`).
    private var backgroundViewProblems: [String: [String]] = [:]
    /// Since when a call to the mirror made between passes (the poll, the mirror's check)
    /// has waited for its answer; nil when none is waiting (under `statusLock`).
    var mirrorCallStarted: ContinuousClock.Instant?
    /// What asks the mirror whether it answers while passes run (under `statusLock`).
    var mirrorProbe: MirrorProbe?
    /// How often that probe asks.
    var mirrorProbeInterval = Duration.seconds(1)
    /// How long a call to the mirror made between passes may wait before the status says
    /// the mirror does not answer.
    public var mirrorSilenceLimit = Duration.seconds(5)
    /// The same for the probe's calls during a pass: longer, since on a slow share or USB
    /// stick they may queue behind the pass's own writes (a large file's flush) for seconds.
    public var probeSilenceLimit = Duration.seconds(30)

    public init(
        mirror: String, root: RawPath, containers: [Container], database: SyncDatabase, ignore: IgnoreCatalog,
        coordinator: FileCoordinator?, deletionGuard: DeletionGuard = DeletionGuard(), quietMilliseconds: Int = 0,
        retention: HistoryRetention = .days(30), deviceName: String? = nil, logger: Logger
    ) throws {
        self.retention = retention
        quietNanoseconds = Int64(quietMilliseconds) * 1_000_000
        layout = MirrorLayout(root: mirror)
        self.database = database
        self.ignore = ignore
        self.coordinator = coordinator
        self.deletionGuard = deletionGuard
        self.logger = logger
        device = try database.deviceIdentity(name: deviceName, defaultName: DeviceName.displayable(ProcessInfo.processInfo.hostName) ?? "unnamed")
        views = ViewLinker(layout: layout, device: device.id, faults: nil)
        knownMirror = try database.knownMirror()
        for container in containers {
            self.containers[container.id] = try makeContainer(container.id.identifier, folder: RawPath(container.folder))
            statuses[container.id] = ContainerSyncStatus(container: container.id.identifier)
        }
    }

    /// A container's sync state as at start-up: nothing read from the mirror yet.
    private func makeContainer(_ id: String, folder: RawPath) throws -> ContainerSync {
        let sync = ContainerSync(id: id, folder: folder, layout: layout, device: device.id)
        sync.journaledSequence = try database.lastOwnSequence(container: id, device: device.id)
        return sync
    }

    /// Checks that the mirror can be used (`MirrorHealth`), and which one it is. Another
    /// mirror than the base was synced with (the user set `mirror` to a new folder, or
    /// another mirror is found where it was): the base says nothing of it. The base is kept
    /// for the mirror left (`SyncDatabase+LeftMirrors`), and one kept for this mirror is
    /// taken up again: this device carries on where it left it. Otherwise it starts over as
    /// a new device would, losing nothing: where its files and the mirror's agree, they are
    /// adopted; where they differ, its own are published beside the mirror's (conflict
    /// versions) unless that mirror's history has them already; what only one side has
    /// comes to the other.
    func checkMirror() throws {
        let hasSyncedBefore = try database.hasSyncedBefore()
        let found = try awaitingMirror { try MirrorHealth.check(layout, hasSyncedBefore: hasSyncedBefore, known: knownMirror) }
        // A marker that could not be read this time keeps the id known for this path.
        let id = found.id ?? (knownMirror?.isElsewhere(than: layout.root) == false ? knownMirror?.id : nil)
        let identity = MirrorIdentity(path: layout.root, id: id)
        guard identity != knownMirror else { return try startOverIfNeeded() }
        let left = try database.remember(identity, forgettingBase: found.isAnother)
        let previous = knownMirror
        knownMirror = identity  // recorded: a start-over that fails below is tried again, not the change
        isRegistered = false  // another mirror: this device's record there is read again
        // Another id, or a base taken up: what was read of the other mirror's logs is no guide.
        guard found.isAnother || previous?.isAnother(id: identity.id) == true || left != nil else { return }
        let leaving = "the mirror \(layout.root) is not the one this device synced with (\(previous?.path ?? "?"))"
        if let left {
            logger.notice(
                "\(leaving): this device synced with it until \(ISO8601DateFormatter().string(from: left)), and carries on where it left it (its changes since, and those it received elsewhere, are sent as edits and deletions)")
        } else {
            logger.warning("\(leaving): this device starts over with it as a new device, keeping both sides where they differ")
        }
        needsStartOver = true
        try startOverIfNeeded()
    }

    private func startOverIfNeeded() throws {
        guard needsStartOver else { return }
        try startOver()
        needsStartOver = false
    }

    /// Forgets what was read of the mirror (the containers' logs, histories and own log
    /// writer, how views are linked there), as at start-up; the next passes look at everything.
    private func startOver() throws {
        waitForViews()  // none of the old mirror's views is still being written
        views = ViewLinker(layout: layout, device: device.id, faults: faults)
        for (id, container) in containers { containers[id] = try makeContainer(container.id, folder: container.folder) }
        needsFullPass.formUnion(containers.keys)
    }

    /// The container's ignore rules changed (its `.ubqignore`): read them again.
    public func ignoreRulesChanged(_ id: ContainerID) {
        ignore.invalidate(id)
    }

    /// The configuration's extra ignore patterns changed (a reload): use them from now on.
    /// The caller asks for a full pass, since which items belong to a container changed.
    public func replaceExtraIgnorePatterns(_ patterns: [String]) throws {
        try ignore.replaceExtraPatterns(patterns)
    }

    /// The configuration's deletion guard changed (a reload): the next pass uses it.
    public func replaceDeletionGuard(_ replacement: DeletionGuard) {
        deletionGuard = replacement
    }

    /// Uses `replacement` from the next listing of versions or collection of the store.
    public func replaceRetention(_ replacement: HistoryRetention) {
        retention = replacement
    }

    /// Whether passes leave the writing of this device's views in the mirror to a thread
    /// of their own, so that the next pass need not wait for it (the daemon). A pass told
    /// the changes are `settled` (`ubq sync`) still returns only once its view is written.
    /// Off (the default), each pass writes its view before it returns.
    public var writesViewsInBackground: Bool {
        get { viewWriter != nil }
        set {
            guard newValue != writesViewsInBackground else { return }
            waitForViews()
            viewWriter = newValue ? ViewWriter { [weak self] container, problems in self?.viewWritten(container, problems: problems) } : nil
        }
    }

    /// Returns once the views of every pass so far are written (before a stop, say).
    public func waitForViews() {
        viewWriter?.waitUntilWritten()
    }

    /// A view written in the background had these problems (none: it was written whole):
    /// they are logged, and the status shows them until the next view of the container is
    /// written (`status()` adds them to the pass's own, which may come before or after).
    func viewWritten(_ container: String, problems: [String]) {
        for problem in problems { logger.warning("\(container): \(problem)") }
        statusLock.withLock { backgroundViewProblems[container] = problems.isEmpty ? nil : problems }
    }

    /// Whether `path` is one of the staging files a pass writes a download into before
    /// putting it in place (`DurableFile.stagingPath`). Its coming and going is no change
    /// to sync: taken for one, a download that fails (a full disk) would start the next
    /// pass, which fails the same way, without end.
    public static func isStagingFile(_ path: RawPath) -> Bool {
        path.lastComponent.map(DurableFile.isStagingName) ?? false
    }

    /// Whether another device wrote since the last pass (an open and an `fstat` per log),
    /// or the mirror this device could only read may now be written.
    public func mirrorHasNews() -> Bool {
        awaitingMirror {
            (unregistered != nil && access(layout.devices, W_OK) == 0) || containers.values.contains { $0.mirrorHasNews() }
        }
    }

    /// Whether a container has paths waiting for the next pass: an earlier pass left them
    /// (a deletion that followed a rename in its last round is published by the next), or
    /// a read of the logs outside a pass found them (`versions`, `deletedItems`, the store's
    /// collection), after which the logs have no news. A pass is due though nothing
    /// changed here or in the mirror since.
    public func hasPathsToLookAt() -> Bool {
        containers.values.contains { $0.hasPathsToLookAt }
    }

    /// One pass over every container. `confirmDeletes` lets held mass deletions through,
    /// `restoreDeletes` undoes them (the items come back from the mirror);
    /// `settled` says the caller made sure every local change is complete (`ubq sync` waits
    /// for the watcher first), so files changed a moment ago need not wait for the next pass.
    ///
    /// `changed` limits the pass to the subtrees changed locally since the last pass (and
    /// what other devices changed): nil looks at everything.
    @discardableResult
    public func passAll(
        confirmDeletes: Bool = false, restoreDeletes: Bool = false, settled: Bool = false, changed: [ContainerID: Set<RawPath>]? = nil
    ) -> [ContainerID: PassReport] {
        defer { if settled { probingMirror { waitForViews() } } }
        do {
            try checkMirror()
            let unregistered = try awaitingMirror { try registerIfWritable() }
            if let unregistered, unregistered != self.unregistered { logger.warning("\(unregistered)") }
            self.unregistered = unregistered
            if pausedBy != nil { logger.notice("the mirror \(layout.root) can be used again; sync resumes") }
            pausedBy = nil
        } catch {
            if pausedBy != "\(error)" { logger.warning("\(error)") }
            pausedBy = "\(error)"
            updateAll { $0.pause("\(error)") }
            recordWaitingUploads(reason: "\(error)", changed: changed)
            needsFullPass.formUnion(containers.keys)  // the changes noted meanwhile are not kept
            return [:]
        }
        var reports: [ContainerID: PassReport] = [:]
        var lookedAtEverything = false
        probingMirror {
            for (id, container) in containers.sorted(by: { $0.key.identifier < $1.key.identifier }) {
                let scope = needsFullPass.remove(id) == nil ? changed.map { $0[id] ?? [] } : nil
                let report = pass(container, id: id, confirmDeletes: confirmDeletes, restoreDeletes: restoreDeletes, settled: settled, scope: scope)
                lookedAtEverything = lookedAtEverything || scope == nil || report.lookedAtEverything
                reports[id] = report
            }
        }
        // A full pass holds the whole base, tree and plan for a moment (about 1 KB an item);
        // glibc keeps what was freed, so the daemon would stay that large between passes.
        if lookedAtEverything { ubq_release_free_memory() }
        return reports
    }

    private func pass(
        _ container: ContainerSync, id: ContainerID, confirmDeletes: Bool, restoreDeletes: Bool, settled: Bool, scope: Set<RawPath>?
    ) -> PassReport {
        let progress = PassProgress()
        let timer = PassTimer()
        update(id) { $0.phase = .syncing }
        statusLock.withLock { inFlight[id] = progress }
        defer { endProgress(id, progress) }
        var syncPass = SyncPass(
            container: container, ignore: ignore.rules(for: id), database: database, coordinator: coordinator,
            deletionGuard: deletionGuard, quietNanoseconds: settled ? 0 : quietNanoseconds, deletionQuiet: settled ? .zero : deletionGuard.quiet,
            faults: faults, views: views, viewWriter: viewWriter, confirmDeletes: confirmDeletes, scope: scope, progress: progress,
            marksUploads: uploadMarker(id), longRound: longPassObserver, racyWindow: racyWindowNanoseconds, batchCapacity: batchCapacity)
        syncPass.restoreDeletes = restoreDeletes
        do {
            let report: PassReport
            do {
                report = try syncPass.run()
            } catch let error as SyncError where error.isOutOfSpace {
                // Out of space past the actions (a log line, a batch's objects): paused, as a
                // pass is whose upload meets a full disk, and the next full pass resumes.
                report = PassReport(pausedBy: error)
            }
            // Held deletions too: a narrower pass would not see them, so it would report none
            // held and `ubq sync --confirm-deletes` would not release them.
            if report.incomplete || report.heldDeletions > 0 { needsFullPass.insert(id) }
            log(report, container: id, sync: container, timer: timer)
            let conflicts = container.conflicts.count
            // The items left out still are, whether or not this pass looked at them.
            let clocks = ClockCheck.note(lastRead: container.lastRead, own: device.id, now: SyncClock.nowMilliseconds())
            let standing = [views.offReason, unregistered, clocks].compactMap { $0 } + container.unsynced.messages + container.failedItems.messages
            let leftOut = container.unsynced.count + container.failedItems.count
            update(id) { $0.finish(report, conflicts: conflicts, standing: standing, leftOut: leftOut) }
            if let state = report.indexState {
                record(state, container: id)
            }
            return report
        } catch {
            logger.error("sync of \(id.identifier) failed: \(error)")
            needsFullPass.insert(id)
            update(id) { $0.fail("\(error)") }
            return PassReport(problems: ["\(error)"])
        }
    }

    /// Sets the ubiquity attributes in the index, and tells the observer which rows changed
    /// (or hands them over, with `indexStateHandoff`).
    private func record(_ state: SyncedState, container id: ContainerID) {
        if let indexStateHandoff { return indexStateHandoff(state, id.identifier) }
        guard let index else { return }
        do {
            let changes = try index.applySyncState(container: id.identifier, state)
            if !changes.isEmpty { indexStateObserver?(changes) }
        } catch {
            logger.error("cannot record sync state in the index: \(error)")
        }
    }

    /// What a pass calls with the items it starts and finishes uploading: they are marked in
    /// the index (after its writes queued so far, before the pass's final state).
    private func uploadMarker(_ id: ContainerID) -> (@Sendable ([RawPath], Bool) -> Void)? {
        guard let index else { return nil }
        let (logger, observer) = (logger, indexStateObserver)
        return { paths, uploaded in
            index.markUploads(container: id.identifier, paths, uploaded: uploaded) { result in
                switch result {
                case .success(let changes): if !changes.isEmpty { observer?(changes) }
                case .failure(let error): logger.error("cannot mark uploads in the index: \(error)")
                }
            }
        }
    }

    /// While the mirror cannot be reached, the index still shows which items wait for an
    /// upload (what differs from the base), with the reason as their uploading error.
    private func recordWaitingUploads(reason: String, changed: [ContainerID: Set<RawPath>]?) {
        guard index != nil else { return }
        for (id, container) in containers {
            let scope = changed.map { $0[id] ?? [] }
            if scope?.isEmpty == true { continue }  // nothing changed here (a poll while paused)
            let paused = SyncPass(
                container: container, ignore: ignore.rules(for: id), database: database, coordinator: nil,
                deletionGuard: deletionGuard, quietNanoseconds: quietNanoseconds, faults: nil, views: views, confirmDeletes: false,
                scope: scope)
            do {
                record(try paused.stateWhilePaused(reason: reason), container: id)
            } catch {
                logger.error("cannot tell which items of \(id.identifier) wait for an upload: \(error)")
            }
        }
    }

    /// Logs what the pass did and met. A problem that stands from pass to pass (an item sync
    /// cannot carry, a download that keeps failing) is logged once while it stands, not by
    /// every pass that meets it again: a folder polled every 5 s (deeper than inotify
    /// reaches) logged its path-too-long failure 17,000 times a day. The status lists them.
    private func log(_ report: PassReport, container: ContainerID, sync: ContainerSync, timer: PassTimer) {
        for problem in report.problems where !sync.loggedStanding.contains(problem) { logger.warning("\(container.identifier): \(problem)") }
        let standing = Set(sync.unsynced.messages + sync.failedItems.messages)
        sync.loggedStanding = standing.intersection(sync.loggedStanding.union(report.problems))
        if report.changedAnything {
            logger.info("synced \(container.identifier): \(report.published) published, \(report.applied) applied, \(report.adopted) adopted, \(report.followed) followed renames, \(report.skipped) skipped, \(report.hashed) files read \(timer.description)")
        }
        if report.heldDeletions > 0 {
            logger.warning("\(container.identifier): \(ContainerSyncStatus.heldDeletionsNote(report.heldDeletions))")
        }
        if report.restoredDeletions > 0 {
            logger.notice("\(container.identifier): \(report.restoredDeletions) held deletions undone: their items are brought back from the mirror")
        }
    }

    /// Registers this device (`registerDevice`). A mirror it may only read (mounted
    /// read-only, a share this user may read) does not stop sync: the device receives, and
    /// the reason it sends nothing is returned, for the status. Other failures throw.
    private func registerIfWritable() throws -> String? {
        do {
            try registerDevice()
            return nil
        } catch let error as SyncError {
            // Said without the staging file's name, which changes at each try: the same
            // words each pass, so the log says it once.
            guard case .system(let code) = error.code, [EROFS, EACCES, EPERM].contains(code) else { throw error }
            // Permissions on `devices/` alone may forbid it while uploads go through: the
            // words hold for both.
            return "this device cannot register in the mirror (\(layout.devices): \(String(cString: strerror(code)))): it receives other devices' changes, and sends its own where the mirror lets it write; other devices name it by its id until it registers"
        }
    }

    /// Writes this device's record in the mirror, if it lacks one or one under its current
    /// name (the user renamed the device); its record is read once per run, and then only
    /// looked for. A record that is there but cannot be replaced (a read-only mirror, a
    /// folder in its place) leaves this device registered under its old name: said once in
    /// the log, and sync goes on.
    private func registerDevice() throws {
        let path = layout.deviceFile(device.id)
        if isRegistered, Sys.lstat(path) != nil { return }
        let written = DeviceRecord(path: path)
        if let written, written.id == device.id, written.name == device.name {
            isRegistered = true
            return
        }
        try Sys.makeFolders(layout.devices)
        let record = DeviceRecord(id: device.id, name: device.name, created: written?.created ?? SyncClock.nowMilliseconds())
        do {
            try DurableFile.replace(path, with: try record.encoded())
        } catch where Sys.lstat(path) != nil {
            logger.warning("this device's record in the mirror (\(path)) cannot be replaced to name it \"\(device.name)\": \(error); other devices go on showing \(written.map { "\"\($0.name)\"" } ?? "its id")")
            isRegistered = true
            return
        }
        // A state folder copied to another machine with another name rewrites it too: the
        // words fit both, and the copy is told apart by its log (`ownLogChanged`).
        if let written, written.name != device.name { logger.notice("this device's record in the mirror named it \"\(written.name)\"; it is now \"\(device.name)\"") }
        isRegistered = true
    }

    // MARK: Status

    public func status() -> [ContainerSyncStatus] {
        statusLock.withLock {
            statuses.map { id, status in
                var status = status
                status.progress = inFlight[id]?.snapshot.nonEmpty
                let viewProblems = backgroundViewProblems[id.identifier] ?? []
                status.list(status.problems + viewProblems.filter { !status.problems.contains($0) }, omitted: status.problemsOmitted ?? 0)
                if let waited = mirrorUnanswered() {
                    status.mirrorUnansweredSeconds = Int(waited.components.seconds)
                    status.pause(Self.unansweredNote(mirror: layout.root, waited: waited))
                }
                return status
            }.sorted { $0.container < $1.container }
        }
    }

    /// The pass is over: its counts, if it had anything to do, become the last ones.
    private func endProgress(_ id: ContainerID, _ progress: PassProgress) {
        statusLock.withLock {
            inFlight[id] = nil
            if let final = progress.snapshot.nonEmpty { statuses[id]?.lastProgress = final }
        }
    }

    private func update(_ id: ContainerID, _ change: (inout ContainerSyncStatus) -> Void) {
        statusLock.withLock { change(&statuses[id, default: ContainerSyncStatus(container: id.identifier)]) }
    }

    private func updateAll(_ change: (inout ContainerSyncStatus) -> Void) {
        statusLock.withLock { for id in statuses.keys { change(&statuses[id]!) } }
    }

    // MARK: Histories (read on the sync thread)

    func container(_ id: ContainerID) -> ContainerSync? { containers[id] }
    var allContainers: [(ContainerID, ContainerSync)] { containers.sorted { $0.key.identifier < $1.key.identifier } }
}
