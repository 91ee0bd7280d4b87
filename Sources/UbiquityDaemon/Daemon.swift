import ContentTypes
import Coordination
import DaemonClient
import Foundation
import Hummingbird
import HummingbirdCore
import Indexing
import Logging
import MetadataIndex
import NIOCore
import ServiceLifecycle
import UnixSignals
import SyncEngine
import SyncPlanning
import RawPaths
import UbiquitySettings
import Watching

/// `ubqd`: watches the containers, keeps the index, serves the local API.
///
/// Start-up order matters (DESIGN.md, decision 10): the tree is watched before the first
/// scan, so nothing changed during the scan is missed; the socket is bound after the
/// scan; `READY=1` is sent only once both are done.
public struct Daemon {
    let settings: Settings
    let logger: Logger
    let logLevels: LogLevelControl
    /// Resolves the settings again for a reload (SIGHUP), as `settings` were.
    let resolveSettings: @Sendable () throws(SettingsError) -> Settings
    let notifier = SystemdNotifier()

    public init(
        settings: Settings, logger: Logger, logLevels: LogLevelControl,
        resolveSettings: @escaping @Sendable () throws(SettingsError) -> Settings
    ) {
        self.settings = settings
        self.logger = logger
        self.logLevels = logLevels
        self.resolveSettings = resolveSettings
    }

    public func run() async throws {
        let containers = settings.containers(discovered: ContainerDiscovery.folderNames(in: RawPath(settings.root)))
        for name in ContainerDiscovery.linkedFolderNames(in: RawPath(settings.root)) {
            logger.warning(
                "\(settings.root)/\(name) is a symbolic link, which ubqd does not follow out of the root: it is neither indexed nor synced. Move the folder itself there, or make the root (--root, UBQ_ROOT) a folder that holds it")
        }
        try Folders.prepare(settings, containers: containers)
        let lock = try InstanceLock(stateDirectory: settings.stateDirectory)
        let root = RawPath(settings.root)
        // Read on another thread while the index opens (about 10 ms each), and read once
        // for the indexer and the content reader.
        let readingMimeDatabase = Task.detached { () throws(ContentTypeError) in try MimeDatabase() }
        let index = try openState(settings.indexPath, what: "the index", consequence: "it is built again from the disk, as at a first start") {
            try MetadataIndex(path: $0, root: root)
        }
        let mimeDatabase = try await readingMimeDatabase.value
        // Its reads of document content take coordinated read claims, never waiting for one.
        let readCoordinator = try FileCoordinator(lockDirectory: lockDirectory)
        let indexer = try Indexer(
            root: root, index: index, extraIgnorePatterns: settings.ignorePatterns, coordinator: readCoordinator,
            mimeDatabase: mimeDatabase, logger: logger)
        let pipeline = IndexPipeline(indexer: indexer, index: index, root: root, settleMilliseconds: settings.settleMilliseconds, logger: logger)

        let watcher = InotifyWatcher(root: root, watchLimit: Self.simulatedWatchLimit(), logger: logger)
        try await watcher.startWalking()
        notifier.notify("STATUS=scanning \(settings.root)")
        let scanStart = ContinuousClock.now
        let statistics = await pipeline.reconcileEverything(alongside: watcher)
        await watcher.walk.finishedWalking()
        let scanTime = ContinuousClock.now - scanStart
        // Counted on a reader while the rest starts up, and the items waiting for content are
        // not counted at all (the content service counts them after READY): after a first
        // scan, whose indexes are built after READY, both counts read the whole table, about
        // 30 ms for 100,000 items, all of it on the way to READY when it was counted here.
        let startupStatus = Task { [logger] in
            let items = (try? index.counts().values.reduce(0, +)) ?? 0
            logger.info("start-up reconciliation: \(statistics) in \(scanTime); \(items) items in \(containers.count) containers")
            let contentPending: Int? = (try? index.hasPendingContent()) == true ? nil : 0
            return StatusLine.text(containers: containers.count, items: items, pending: 0, contentPending: contentPending)
        }

        let ready = ReadyLatch()
        let syncGate = Gate(shut: false)
        let hub = PresenterHub(markerPath: settings.runtimeDirectory + "/" + DaemonPresenterRelay.markerName, logger: logger)
        let paths = CanonicalRoot(root: root, canonicalRoot: Self.canonical(root))
        let sync = try makeSyncService(
            containers: containers, root: root, index: index, pipeline: pipeline, ready: ready, longPasses: syncGate,
            conflicts: ConflictWatch(hub: hub, paths: paths))
        if let sync { await pipeline.observeChanges { sync.noteLocalChanges($0) } }
        let (outcomes, outcomeSink) = AsyncStream.makeStream(of: [PathOutcome].self)
        await pipeline.observeOutcomes { outcomeSink.yield($0) }
        let coordination = CoordinationService(hub: hub, outcomes: outcomes, coordinator: readCoordinator, paths: paths, logger: logger)
        let routes = APIRoutes(
            settings: settings, index: index, pipeline: pipeline, watcher: watcher, logger: logger,
            liveQueryCapacity: Self.liveQueryCapacity())
        let syncRoutes = SyncRoutes(service: sync, waitForWatcher: { try await routes.waitForWatcher() })
        let limits = ConnectionLimits.resolve(openFiles: OpenFileLimit.raise())
        let server = try APIServer(socketPath: settings.socketPath, limits: limits, notifier: notifier, logger: logger).make(
            routes: routes, syncRoutes: syncRoutes, presenterRoutes: PresenterRoutes(hub: hub, logger: logger),
            status: { await startupStatus.value }, ready: ready)
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: IndexService(watcher: watcher, pipeline: pipeline, notifier: notifier, logger: logger)),
            .init(service: await makeReloader(pipeline: pipeline, sync: sync)),
            .init(service: server),
            .init(service: coordination),
            .init(
                service: try makeContentService(
                    root: root, index: index, pipeline: pipeline, containers: containers.count, mimeDatabase: mimeDatabase, ready: ready,
                    syncGate: syncGate),
                successTerminationBehavior: .ignore),
        ]
        if let sync { services.append(.init(service: sync)) }
        let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        notifier.notify("STOPPING=1")
        withExtendedLifetime(lock) {}
    }

    /// Reads the content the start-up scan left pending, except while `syncGate` is shut.
    private func makeContentService(
        root: RawPath, index: MetadataIndex, pipeline: IndexPipeline, containers: Int, mimeDatabase: MimeDatabase, ready: ReadyLatch,
        syncGate: Gate
    ) throws -> ContentService {
        ContentService(
            reader: ContentReaderQueue(reader: try ContentReader(
                root: root, coordinator: try FileCoordinator(lockDirectory: lockDirectory), mimeDatabase: mimeDatabase, logger: logger)),
            index: index, pipeline: pipeline, ready: ready, syncGate: syncGate,
            notifier: notifier, containers: containers, logger: logger)
    }

    /// SIGHUP is trapped here, before the socket is bound and READY=1 is sent: from then on
    /// a reload never finds the default action (ending the process) in place.
    private func makeReloader(pipeline: IndexPipeline, sync: SyncService?) async -> ConfigReloadService {
        ConfigReloadService(
            signals: await UnixSignalsSequence(trapping: .sighup), running: settings, resolve: resolveSettings,
            live: LiveSettings(logLevels: logLevels, pipeline: pipeline, sync: sync, logger: logger),
            notifier: notifier, logger: logger)
    }

    /// The sync service when a mirror is configured (sync is off without one). It shuts
    /// `longPasses` while a pass is long (`LongWork`), and has `conflicts` look after each
    /// call into the engine.
    private func makeSyncService(
        containers: [Container], root: RawPath, index: MetadataIndex, pipeline: IndexPipeline, ready: ReadyLatch, longPasses: Gate,
        conflicts: ConflictWatch
    ) throws -> SyncService? {
        guard let mirror = settings.mirror else {
            logger.info("no mirror configured: sync is off (set UBQ_MIRROR or mirror in config.toml)")
            return nil
        }
        let engine = try SyncEngine(
            mirror: mirror, root: root, containers: containers,
            database: try openState(
                settings.stateDirectory + "/sync.sqlite", what: "the sync state",
                consequence: "this device starts over as a new device: its files are compared with the mirror's again, and where they differ both are kept (conflict versions), so nothing is lost"
            ) { try SyncDatabase(path: $0) },
            ignore: IgnoreCatalog(layout: ContainerLayout(root: root), extraPatterns: settings.ignorePatterns, logger: logger),
            coordinator: try FileCoordinator(
                lockDirectory: lockDirectory, timeout: nil,
                relay: DaemonPresenterRelay(socketPath: settings.socketPath, markerPath: settings.runtimeDirectory + "/" + DaemonPresenterRelay.markerName)),
            deletionGuard: DeletionGuard(settings.sync), quietMilliseconds: settings.settleMilliseconds,
            retention: HistoryRetention(settings.sync), deviceName: settings.deviceName, logger: logger)
        engine.index = index
        engine.writesViewsInBackground = true
        let indexUpdates = InOrderPublisher()
        engine.indexStateObserver = { changes in indexUpdates.enqueue { await pipeline.publishSyncState(changes) } }
        engine.indexStateHandoff = pipeline.syncStateHandoff(through: indexUpdates)
        engine.longPassObserver = { running in running ? longPasses.shut() : longPasses.open() }
        logger.info("syncing with \(mirror) as device \(engine.device.id) (\(engine.device.name))")
        return SyncService(
            worker: SyncWorker(engine: engine, afterEachCall: { conflicts.look(at: $0) }), layout: ContainerLayout(root: root), settings: settings.sync, ready: ready,
            indexUpdates: indexUpdates, logger: logger)
    }

    /// The folder of every coordinated claim's lock files (shared with `ubq` and apps).
    private var lockDirectory: URL { URL(fileURLWithPath: settings.runtimeDirectory + "/locks", isDirectory: true) }

    /// `path` with symbolic links resolved, as coordinated claims name it.
    private static func canonical(_ path: RawPath) -> RawPath {
        guard let resolved = realpath(path.readable, nil) else { return path }
        defer { free(resolved) }
        return RawPath(String(cString: resolved))
    }

    /// `UBQ_WATCH_LIMIT=N` makes the watcher act as if the kernel had only N inotify
    /// watches, to try the polling fallback (and for its tests).
    private static func simulatedWatchLimit() -> Int? {
        ProcessInfo.processInfo.environment["UBQ_WATCH_LIMIT"].flatMap { Int($0) }
    }

    /// `UBQ_WATCH_BUFFER=N`: how many updates may wait for a live-query client before it
    /// is dropped (default 100,000); small values let tests drop a client quickly.
    private static func liveQueryCapacity() -> Int {
        ProcessInfo.processInfo.environment["UBQ_WATCH_BUFFER"].flatMap { Int($0) }.map { max(1, $0) } ?? 100_000
    }
}
