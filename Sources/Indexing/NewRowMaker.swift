import ContentTypes
import Logging
import MetadataIndex
import RawPaths

/// Turns walked items into index rows on the thread that calls it: the bulk load of a new
/// container runs it on a thread of its own (`Indexer.loadNew`), beside the
/// writer's. Names and status only, no content is read (`contentPending`), so it has no
/// coordinator.
///
/// @unchecked Sendable: it owns a content-type detector, which one thread at a time may
/// use. The indexer hands it to one background thread per load and waits for that thread
/// to end before the load returns.
final class NewRowMaker: @unchecked Sendable {
    private let inspector: ItemInspector

    init(database: MimeDatabase, logger: Logger) throws {
        inspector = ItemInspector(detector: try ContentTypeDetector(database: database), logger: logger)
    }

    /// Rows for every item `walk` yields, in its order, handed to `yield` in batches of
    /// `batchSize` (the last one smaller) until it returns false.
    func rows(
        from walk: Prefetcher<(path: RawPath, status: FileStatus), [IndexingError]>, in names: ContainerNames, batchSize: Int,
        yield: (NewRows) -> Bool
    ) {
        var builder = NewRows.Builder()
        while let (path, status) = walk.next() {
            // Without reading content no item is deferred: the snapshot is never nil.
            guard let item = inspector.snapshot(path, in: names, status: status, readingContent: false) else { continue }
            builder.append(item)
            if builder.rows.count >= batchSize, !yield(builder.take()) { return }
        }
        if !builder.rows.isEmpty { _ = yield(builder.take()) }
    }
}
