import Dispatch
import FileEvents
import Indexing
import Logging
import MetadataIndex
import ServiceLifecycle

/// Finishes, after READY, what the start-up scan left: first the index's secondary
/// indexes (a first scan loads the table without them), then the pending content:
/// sniffed types, text for full-text search, diary entries. Files are read on the
/// reader's own idle-class thread (`ContentReaderQueue`), a batch at a time, so a core
/// nothing else wants does the reading while the pipeline keeps applying watcher
/// changes; each batch is recorded through the pipeline,
/// so live queries see the items change and a file changed meanwhile is not overwritten
/// with stale content (`IndexChange.fillContent`). It returns when the pass is done; the
/// daemon runs it with `successTerminationBehavior: .ignore`. It starts at READY.
///
/// It also waits while a sync pass is long (`syncGate`): from the moment its scan reads
/// many files or it carries out a long plan, to its end (`LongWork`). The idle class
/// keeps the reading itself out of the way, but not what it costs around it: the index
/// writes it makes, at normal priority, and the kernel's work for the files it opens. In
/// a first sync of 100,000 files (scratch initloop.sh, each run on a new ext4 on a loop
/// file, interleaved) the daemon used 15.1-15.9 s of CPU on 2 cores with it waiting for
/// the plan and 17.3-18.2 s without; the sync took 9.91-10.47 s instead of 10.82-11.34 s.
/// Waiting for the scan as well, it used 11.6-12.6 s against 12.5-13.7 s (scratch
/// pairs.sh, 6 interleaved rounds each, a build holding the reader back from the pass's
/// start); the wall time did not measurably change. Full-text search lags behind a
/// first sync by that much more, unless a query waits for it
/// (`IndexPipeline.contentAwaited`): the user asked, so it reads on.
struct ContentService: Service {
    let reader: ContentReaderQueue
    let index: MetadataIndex
    let pipeline: IndexPipeline
    let ready: ReadyLatch
    /// Shut while a sync pass is long: the reading waits between batches (until a query
    /// waits for the content).
    let syncGate: Gate
    let notifier: SystemdNotifier
    let containers: Int
    let logger: Logger
    /// Items per batch: small enough that a watcher change waits at most one batch write.
    let batchSize = 256

    func run() async throws {
        await cancelWhenGracefulShutdown { await ready.wait() }
        guard !Task.isShuttingDownGracefully && !Task.isCancelled else { return }
        reportStatus()  // READY's status did not count the items waiting for content
        await buildSecondaryIndexes()
        let start = ContinuousClock.now
        var status = StatusThrottle()
        let initial = (try? index.pendingContentCount()) ?? 0
        var pending = initial
        // A pass meets each pending item once. Items it could not complete (another
        // process held a claim on them, or they changed and wait for the watcher) get
        // another pass a moment later, as long as passes still make progress. Content the
        // index could not take (a full disk) is read again, after a growing delay, until
        // it can: the disk may get space any time, and nothing else would prompt it.
        var retryDelay = FailedChanges.firstDelay
        while pending > 0 && !Task.isCancelled && !Task.isShuttingDownGracefully {
            let written = await pass(status: &status)
            let left = (try? index.pendingContentCount()) ?? 0
            let progressed = left < pending
            pending = left
            guard left > 0 && (progressed || !written) else { break }
            // Queries waiting for the content go ahead meanwhile: better an answer that
            // misses some text (status says why) than none until the disk has room.
            if !written { await pipeline.finishContentPass() }
            let delay = written ? FailedChanges.firstDelay : retryDelay
            retryDelay = written ? FailedChanges.firstDelay : min(retryDelay * 2, FailedChanges.longestDelay)
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .nanoseconds(delay)) }
        }
        await pipeline.finishContentPass()
        reportStatus()
        if initial > pending { logger.info("content of \(initial - pending) items read in \(ContinuousClock.now - start)") }
        if pending > 0 { logger.info("content of \(pending) items left to read: they are read when they change, or at the next start") }
    }

    /// One pass over the pending items, in id order. A batch is read while the one before
    /// it is written: one after the other, reading and writing took about as long each
    /// (100,000 items: 12.5 s for the pass, each core half idle). Returns whether every
    /// batch read could be written.
    private func pass(status: inout StatusThrottle) async -> Bool {
        var lastID: Int64 = 0
        var writing: Task<Bool, Never>?
        var written = true
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            await cancelWhenGracefulShutdown { await Gate.firstOpen(syncGate, pipeline.contentAwaited) }
            let batch: [PendingContent]
            do {
                batch = try index.pendingContent(after: lastID, limit: batchSize)
            } catch {
                logger.error("cannot list the items whose content is to be read: \(error)")
                break
            }
            guard let last = batch.last else { break }
            lastID = last.id
            let snapshots = await reader.read(batch)
            if await writing?.value == false { written = false }  // batches are written in order
            writing = Task { [pipeline] in await pipeline.fillContent(snapshots) }
            if status.due() { reportStatus() }
        }
        if await writing?.value == false { written = false }
        return written
    }

    /// Queries are right without them, only slower; a failure is logged and tried again
    /// at the next start.
    private func buildSecondaryIndexes() async {
        let start = ContinuousClock.now
        do {
            let built = try await index.buildSecondaryIndexes()
            if built > 0 {
                logger.info("built \(built) of the index's secondary indexes in \(ContinuousClock.now - start)")
            } else {
                logger.debug("the index's secondary indexes are all in place")
            }
        } catch {
            logger.error("cannot build the index's secondary indexes (queries scan the table until the next start): \(error)")
        }
    }

    /// What `systemctl --user status` shows while content is read, and once it is.
    private func reportStatus() {
        guard let items = try? index.counts().values.reduce(0, +), let pending = try? index.pendingContentCount() else { return }
        notifier.notify("STATUS=" + StatusLine.text(containers: containers, items: items, pending: 0, contentPending: pending))
    }
}

/// At most one STATUS= line every two seconds while content is read.
struct StatusThrottle {
    private var last = ContinuousClock.now

    mutating func due() -> Bool {
        guard ContinuousClock.now - last > .seconds(2) else { return false }
        last = .now
        return true
    }
}

/// A `ContentReader` used from one thread of its own: it blocks on file reads and
/// libmagic, which must not happen on Swift's cooperative threads, and it runs only when
/// a core is idle (`IdleThread`): what it reads serves full-text search, which may lag
/// behind a first sync, not slow it.
final class ContentReaderQueue: @unchecked Sendable {
    // Unchecked: `reader` is touched only on `thread`.
    private let reader: ContentReader
    private let thread = IdleThread(name: "ubqd.content")

    init(reader: ContentReader) {
        self.reader = reader
    }

    func read(_ items: [PendingContent]) async -> [ItemSnapshot] {
        await withCheckedContinuation { continuation in
            thread.async { continuation.resume(returning: self.reader.read(items)) }
        }
    }
}
