import APIModel
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// Talks to `ubqd` over its Unix socket: HTTP/1.1 with JSON bodies (DESIGN.md, decision 8).
public struct DaemonClient: Sendable {
    public let socketPath: String

    public init(socketPath: String) {
        self.socketPath = socketPath
    }

    public func get<Response: Decodable>(_ route: String, as type: Response.Type = Response.self) async throws(DaemonClientError) -> Response {
        try decode(try await send(method: .GET, route: route, body: nil), as: type)
    }

    public func post<Response: Decodable>(_ route: String, body: some Encodable, as type: Response.Type = Response.self) async throws(DaemonClientError) -> Response {
        let data: Data
        do { data = try JSONEncoder().encode(body) } catch { throw DaemonClientError(.protocolError, "cannot encode the request: \(error)") }
        return try decode(try await send(method: .POST, route: route, body: data), as: type)
    }

    func decode<Response: Decodable>(_ reply: HTTPReply, as type: Response.Type) throws(DaemonClientError) -> Response {
        guard (200..<300).contains(reply.status.code) else {
            if let apiError = try? JSONDecoder().decode(APIError.self, from: reply.body) {
                throw DaemonClientError(apiError, status: Int(reply.status.code))
            }
            throw DaemonClientError(.protocolError, "ubqd answered \(reply.status): \(String(decoding: reply.body, as: UTF8.self))")
        }
        do {
            return try JSONDecoder().decode(type, from: reply.body)
        } catch {
            throw DaemonClientError(.protocolError, "cannot read ubqd's answer: \(error)")
        }
    }

    func send(method: HTTPMethod, route: String, body: Data?, timeout: Duration? = nil) async throws(DaemonClientError) -> HTTPReply {
        let (connected, reply) = request(method: method, route: route, body: body, timeout: timeout)
        do { try await connected.get() } catch { throw DaemonClientError.notRunning(socketPath: socketPath, cause: error) }
        do {
            return try await reply.get()
        } catch {
            throw DaemonClientError(.protocolError, "the connection to ubqd failed: \(error)")
        }
    }

    /// Connects, sends one request and collects its response, all on an event loop: the
    /// first future says whether the connection was made, the second brings the answer (or,
    /// after `timeout`, fails and closes the connection: a stopped ubqd must not hang us).
    func request(
        method: HTTPMethod, route: String, body: Data?, timeout: Duration? = nil
    ) -> (connected: EventLoopFuture<Void>, reply: EventLoopFuture<HTTPReply>) {
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let reply = loop.makePromise(of: HTTPReply.self)
        let connected = ClientBootstrap(group: loop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    // Made on the channel's loop, where it lives: not sent across threads.
                    try channel.pipeline.syncOperations.addHandler(ReplyCollector(reply: reply))
                }
            }
            .connect(unixDomainSocketPath: socketPath)
        connected.whenComplete { result in
            switch result {
            case .failure(let error): reply.fail(error)
            case .success(let channel):
                Self.write(method: method, route: route, body: body, to: channel)
                if let timeout { Self.expire(reply, channel, after: timeout, route: route) }
            }
        }
        return (connected.map { _ in }, reply.futureResult)
    }

    private static func expire(_ reply: EventLoopPromise<HTTPReply>, _ channel: any Channel, after timeout: Duration, route: String) {
        let nanoseconds = Int64(timeout.components.seconds) * 1_000_000_000 + Int64(timeout.components.attoseconds / 1_000_000_000)
        let timer = channel.eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) {
            reply.fail(DaemonClientError(.protocolError, "ubqd did not answer \(route) within \(timeout)"))  // ignored if answered
            channel.close(promise: nil)
        }
        reply.futureResult.whenComplete { _ in timer.cancel() }
    }

    private static func write(method: HTTPMethod, route: String, body: Data?, to channel: any Channel) {
        var head = HTTPRequestHead(version: .http1_1, method: method, uri: route)
        head.headers.add(name: "Host", value: "ubqd")
        head.headers.add(name: "Connection", value: "close")
        head.headers.add(name: "Content-Length", value: String(body?.count ?? 0))
        if body != nil { head.headers.add(name: "Content-Type", value: "application/json") }
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        if let body { channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil) }
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
    }
}

/// A whole HTTP response.
struct HTTPReply: Sendable {
    var status: HTTPResponseStatus
    var body: Data
}
