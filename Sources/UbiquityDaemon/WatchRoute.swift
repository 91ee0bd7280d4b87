import APIModel
import Foundation
import Hummingbird
import MetadataIndex

/// `POST /v1/watch`: a live query streamed as NDJSON (docs/API.md).
extension APIRoutes {
    /// The longest batching interval a client may ask for.
    static let maximumBatchInterval = 3600.0

    func watch(_ request: Request, _ context: DaemonRequestContext) async throws -> Response {
        let body = try await request.decode(as: WatchRequest.self, context: context)
        let plan: QueryPlan
        do {
            plan = try QueryPlan(body.query)
        } catch {
            return JSONResponse.error(.badRequest, APIError(error: error.kind, message: error.message, position: error.position))
        }
        let interval = body.batchInterval ?? 0
        guard interval >= 0, interval <= Self.maximumBatchInterval else {
            return JSONResponse.error(.badRequest, APIError(error: "batch-interval", message: "batchInterval must be between 0 and \(Int(Self.maximumBatchInterval)) seconds, not \(interval)"))
        }
        try await waitForWatcher()
        let channel = context.channel
        let (subscriber, gatheredCount) = try await pipeline.subscribe(plan, capacity: liveQueryCapacity) { channel.close(promise: nil) }
        channel.closeFuture.whenComplete { [outbox = subscriber.outbox] _ in outbox.end(.failed("the client disconnected")) }
        logger.info("live query client \(subscriber.id) started: \(gatheredCount) items gathered for \(body.predicate ?? "every item")")
        let stream = LiveStream(
            subscriber: subscriber, batchInterval: interval > 0 ? .seconds(interval) : nil,
            pipeline: pipeline, logger: logger)
        return Response(
            status: .ok, headers: [.contentType: "application/x-ndjson"],
            body: ResponseBody { writer in try await stream.write(&writer) })
    }
}
