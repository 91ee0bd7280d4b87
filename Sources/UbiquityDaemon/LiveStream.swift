import APIModel
import Foundation
import Hummingbird
import Logging
import MetadataIndex
import ServiceLifecycle

/// Writes one live query's response: the gathered items, the end-of-gathering marker,
/// then the updates as the pipeline pushes them, coalesced over `batchInterval` when set.
/// Runs in the connection's own task, so a slow client only slows itself.
struct LiveStream: Sendable {
    let subscriber: LiveSubscriber
    let batchInterval: Duration?
    let pipeline: IndexPipeline
    let logger: Logger
    /// Lines per write while gathering, so a large answer is not one huge buffer.
    private let gatherChunk = 1000

    init(subscriber: LiveSubscriber, batchInterval: Duration?, pipeline: IndexPipeline, logger: Logger) {
        self.subscriber = subscriber
        self.batchInterval = batchInterval
        self.pipeline = pipeline
        self.logger = logger
    }

    func write(_ writer: inout any ResponseBodyWriter) async throws {
        do {
            // Taken from the pipeline and passed on, so the answer is freed once written.
            try await writeGathered(await pipeline.takeGathered(subscriber.id), &writer)
            try await withGracefulShutdownHandler {
                try await writeUpdates(&writer)
            } onGracefulShutdown: { [outbox = subscriber.outbox] in
                outbox.end(.shuttingDown)
            }
            try await writer.finish(nil)
        } catch {
            logger.info("live query client \(subscriber.id) gone: \(error)")
            await pipeline.unsubscribe(subscriber.id)
            throw error
        }
        await pipeline.unsubscribe(subscriber.id)
    }

    private func writeGathered(_ gathered: [TrackedItem], _ writer: inout any ResponseBodyWriter) async throws {
        var start = 0
        while start < gathered.count {
            let chunk = gathered[start..<min(start + gatherChunk, gathered.count)]
            let lines = chunk.reduce(into: Data()) { $0 += LiveLines.line(.gathered, itemJSON: LiveLines.json($1.item)) }
            try await writer.write(ByteBuffer(bytes: lines))
            start += chunk.count
        }
        try await writer.write(ByteBuffer(bytes: LiveLines.finishedGathering(count: gathered.count)))
    }

    /// Ends when the outbox ends, with a `closed` line that says why. A dropped client's
    /// connection is being closed meanwhile; it gets the line only if it is still reading.
    private func writeUpdates(_ writer: inout any ResponseBodyWriter) async throws {
        while true {
            switch await subscriber.outbox.next() {
            case .items(let batches):
                let lines = await coalesced(batches)
                if !lines.isEmpty { try await writer.write(ByteBuffer(bytes: lines)) }
            case .ended(let ending):
                return try await writer.write(ByteBuffer(bytes: LiveLines.closed(reason: Self.reason(ending, capacity: subscriber.outbox.capacity))))
            }
        }
    }

    private static func reason(_ ending: LiveEnding, capacity: Int) -> String {
        switch ending {
        case .dropped: return "this watch fell \(capacity) updates behind and was dropped; read faster or use a batching interval"
        case .shuttingDown: return "ubqd is stopping"
        case .failed(let reason): return reason
        }
    }

    /// Without a batching interval each update is a line as it came. With one, waits out
    /// the interval, takes what else arrived, and sends each item once for its net change.
    private func coalesced(_ first: [[EncodedUpdate]]) async -> Data {
        guard let batchInterval else {
            return first.joined().reduce(into: Data()) { $0 += LiveLines.line($1.kind, itemJSON: $1.itemJSON) }
        }
        try? await Task.sleep(for: batchInterval)
        var batches = first
        if case .items(let more) = subscriber.outbox.take() { batches += more }
        var coalescer = UpdateCoalescer<Data>()
        for update in batches.joined() { coalescer.add(update.kind, key: update.key, item: update.itemJSON) }
        return coalescer.take().reduce(into: Data()) { $0 += LiveLines.line($1.kind, itemJSON: $1.item) }
    }
}
