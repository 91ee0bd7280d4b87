import APIModel
import Foundation
import NIOCore

extension DaemonClient {
    /// `post` for code that cannot await (the blocking `FileCoordinator.coordinate` forms):
    /// blocks the calling thread until ubqd answers. Never call it on an event loop.
    @available(*, noasync, message: "it blocks the thread: use post(_:body:as:)")
    public func postBlocking<Response: Decodable>(
        _ route: String, body: some Encodable, as type: Response.Type = Response.self, timeout: Duration? = nil
    ) throws(DaemonClientError) -> Response {
        let data: Data
        do { data = try JSONEncoder().encode(body) } catch { throw DaemonClientError(.protocolError, "cannot encode the request: \(error)") }
        let (connected, reply) = request(method: .POST, route: route, body: data, timeout: timeout)
        do { try connected.wait() } catch { throw DaemonClientError.notRunning(socketPath: socketPath, cause: error) }
        let answer: HTTPReply
        do { answer = try reply.wait() } catch { throw DaemonClientError(.protocolError, "the connection to ubqd failed: \(error)") }
        return try decode(answer, as: type)
    }

    /// `post` that gives up after `timeout` (the connection is closed).
    public func post<Response: Decodable>(
        _ route: String, body: some Encodable, as type: Response.Type = Response.self, timeout: Duration
    ) async throws(DaemonClientError) -> Response {
        let data: Data
        do { data = try JSONEncoder().encode(body) } catch { throw DaemonClientError(.protocolError, "cannot encode the request: \(error)") }
        return try decode(try await send(method: .POST, route: route, body: data, timeout: timeout), as: type)
    }

    /// Sends a POST without waiting for the answer; `completion` (on an event loop) gets
    /// the error if it failed. For answers to ubqd that nothing waits on.
    public func postDetached(_ route: String, body: some Encodable, completion: @escaping @Sendable ((any Error)?) -> Void) {
        let data: Data
        do { data = try JSONEncoder().encode(body) } catch {
            completion(DaemonClientError(.protocolError, "cannot encode the request: \(error)"))
            return
        }
        request(method: .POST, route: route, body: data).reply.whenComplete { result in
            switch result {
            case .success(let reply) where (200..<300).contains(reply.status.code): completion(nil)
            case .success(let reply):
                completion(DaemonClientError(.protocolError, "ubqd answered \(reply.status): \(String(decoding: reply.body, as: UTF8.self))"))
            case .failure(let error): completion(error)
            }
        }
    }
}
