import APIModel
import Hummingbird
import Logging
import NIOCore

/// Answers every error a route or Hummingbird throws with the API's error body
/// (`{"error": KIND, "message": TEXT}`, docs/API.md) instead of an empty one: an unknown
/// route, a body that is not the expected JSON, a body over the size limit, a failure inside
/// ubqd. Added first, so it sees every request, unknown routes included.
struct APIErrorMiddleware: RouterMiddleware {
    typealias Context = DaemonRequestContext
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch is NIOTooManyBytesError {
            return tooLarge(request, context)
        } catch let error as HTTPError {
            let message = error.body ?? "\(request.method) \(request.uri.path): \(error.status.reasonPhrase)"
            return JSONResponse.error(error.status, APIError(error: Self.kind(error.status), message: message))
        } catch let error as any HTTPResponseError {
            return JSONResponse.error(error.status, APIError(error: Self.kind(error.status), message: "\(request.method) \(request.uri.path): \(error)"))
        } catch is CancellationError {
            return JSONResponse.error(.serviceUnavailable, APIError(error: "unavailable", message: "ubqd is stopping; try again once it runs"))
        } catch {
            logger.error("\(request.method) \(request.uri.path) failed: \(error)")
            return JSONResponse.error(.internalServerError, APIError(error: "internal", message: "ubqd failed to answer: \(error)"))
        }
    }

    /// 413, then the connection is closed once the answer is written: the rest of the body
    /// is not read (Hummingbird would read it all to reach the next request), and a client
    /// still sending gets EPIPE.
    private func tooLarge(_ request: Request, _ context: Context) -> Response {
        let limit = DaemonRequestContext.maximumBodySize
        logger.warning("refused a request body over \(limit) bytes (\(request.method) \(request.uri.path))")
        let body = ByteBuffer(bytes: JSONResponse.body(APIError(
            error: "too-large",
            message: "the request body is larger than \(limit / (1 << 20)) MiB (\(limit) bytes), the most ubqd reads; send a smaller request")))
        let channel = context.channel
        return Response(
            status: .contentTooLarge,
            headers: [.contentType: "application/json", .contentLength: String(body.readableBytes), .connection: "close"],
            body: ResponseBody { writer in
                try await writer.write(body)
                try await writer.finish(nil)
                channel.close(promise: nil)
            })
    }

    /// "not-found", "method-not-allowed", "bad-request": the status's reason, in the API's style.
    static func kind(_ status: HTTPResponse.Status) -> String {
        status.reasonPhrase.lowercased().split(whereSeparator: { !$0.isLetter }).joined(separator: "-")
    }
}
