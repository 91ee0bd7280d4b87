import Dispatch
import Indexing
import Logging
import MetadataIndex
import ServiceLifecycle

/// Reads, after READY, the content the start-up scan left pending: sniffed types, text
/// for full-text search, diary entries. Files are read on the reader's own queue, a
/// batch at a time, so the second core does the reading while the pipeline keeps
/// applying watcher changes; each batch is recorded through the pipeline, so live
/// queries see the items change and a file changed meanwhile is not overwritten with
/// stale content (`IndexChange.fillContent`). It returns when the pass is done; the
/// daemon runs it with `successTerminationBehavior: .ignore`.
struct ContentService: Service {
    let reader: ContentReaderQueue
    let index: MetadataIndex
    let pipeline: IndexPipeline
    let notifier: SystemdNotifier
    let containers: Int
    let logger: Logger
    /// Items per batch: small enough that a watcher change waits at most one batch write.
    let batchSize = 256

    func run() async throws {
        let start = ContinuousClock.now
        var lastID: Int64 = 0
        var read = 0
        var lastStatus = ContinuousClock.now
        reportStatus()
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
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
            await pipeline.fillContent(snapshots)
            read += snapshots.count
            if ContinuousClock.now - lastStatus > .seconds(2) {
                reportStatus()
                lastStatus = .now
            }
        }
        await pipeline.finishContentPass()
        reportStatus()
        if read > 0 { logger.info("content of \(read) items read in \(ContinuousClock.now - start)") }
    }

    /// What `systemctl --user status` shows while content is read, and once it is.
    private func reportStatus() {
        guard let items = try? index.counts().values.reduce(0, +), let pending = try? index.pendingContentCount() else { return }
        notifier.notify("STATUS=" + StatusLine.text(containers: containers, items: items, pending: 0, contentPending: pending))
    }
}

/// A `ContentReader` used from one serial queue: it blocks on file reads and libmagic,
/// which must not happen on Swift's cooperative threads.
final class ContentReaderQueue: @unchecked Sendable {
    // Unchecked: `reader` is touched only on `queue`.
    private let reader: ContentReader
    private let queue = DispatchQueue(label: "ubqd.content", qos: .utility)

    init(reader: ContentReader) {
        self.reader = reader
    }

    func read(_ items: [PendingContent]) async -> [ItemSnapshot] {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.reader.read(items)) }
        }
    }
}
