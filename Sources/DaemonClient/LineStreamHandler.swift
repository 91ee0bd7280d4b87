import APIModel
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A streaming response read in the background by the event loop, line by line, with no
/// task of its own: for a session that lives as long as the process wants (file
/// presenters). Close it to end the stream.
public final class LineStreamConnection: Sendable {
    private let channel: any Channel

    init(channel: any Channel) {
        self.channel = channel
    }

    public func close() {
        channel.close(promise: nil)
    }
}

extension DaemonClient {
    /// Sends a POST whose answer is NDJSON and hands each line to `line` on the event loop,
    /// as it arrives; `ended` runs once when the stream ends (nil: ubqd ended it cleanly).
    /// `opened` gets the connection once the request is sent, or `notRunning` when nothing
    /// answers at the socket.
    public func openLineStream(
        _ route: String, body: some Encodable,
        line: @escaping @Sendable (Data) -> Void, ended: @escaping @Sendable ((any Error)?) -> Void,
        opened: @escaping @Sendable (Result<LineStreamConnection, any Error>) -> Void
    ) {
        let data: Data
        do { data = try JSONEncoder().encode(body) } catch {
            return opened(.failure(DaemonClientError(.protocolError, "cannot encode the request: \(error)")))
        }
        stream(route, data, line: line, ended: ended).whenComplete(opened)
    }

    private func stream(
        _ route: String, _ data: Data, line: @escaping @Sendable (Data) -> Void, ended: @escaping @Sendable ((any Error)?) -> Void
    ) -> EventLoopFuture<LineStreamConnection> {
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let socketPath = self.socketPath
        return ClientBootstrap(group: loop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(LineStreamHandler(line: line, ended: ended))
                }
            }
            .connect(unixDomainSocketPath: socketPath)
            .flatMapError { error in loop.makeFailedFuture(DaemonClientError.notRunning(socketPath: socketPath, cause: error)) }
            .map { channel in
                var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: route)
                head.headers.add(name: "Host", value: "ubqd")
                head.headers.add(name: "Content-Type", value: "application/json")
                head.headers.add(name: "Content-Length", value: String(data.count))
                channel.write(HTTPClientRequestPart.head(head), promise: nil)
                channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: data))), promise: nil)
                channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
                return LineStreamConnection(channel: channel)
            }
    }
}

/// Splits a streaming response body into lines. Lives on its channel's event loop only.
final class LineStreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart

    private let line: @Sendable (Data) -> Void
    private let ended: @Sendable ((any Error)?) -> Void
    private var status: HTTPResponseStatus = .ok
    private var pending = ByteBuffer()
    private var finished = false

    init(line: @escaping @Sendable (Data) -> Void, ended: @escaping @Sendable ((any Error)?) -> Void) {
        self.line = line
        self.ended = ended
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): status = head.status
        case .body(var chunk):
            pending.writeBuffer(&chunk)
            if (200..<300).contains(status.code) { emitLines() }
        case .end:
            if (200..<300).contains(status.code) {
                finish(nil)
            } else {
                let body = Data(pending.readableBytesView)
                let error = (try? JSONDecoder().decode(APIError.self, from: body)).map { DaemonClientError($0, status: Int(status.code)) }
                finish(error ?? DaemonClientError(.protocolError, "ubqd answered \(status): \(String(decoding: body, as: UTF8.self))"))
            }
            context.close(promise: nil)
        }
    }

    private func emitLines() {
        while let newline = pending.readableBytesView.firstIndex(of: 0x0A) {
            let length = newline - pending.readerIndex
            line(Data(pending.readBytes(length: length) ?? []))
            pending.moveReaderIndex(forwardBy: 1)
        }
        pending.discardReadBytes()
    }

    private func finish(_ error: (any Error)?) {
        guard !finished else { return }
        finished = true
        ended(error)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(DaemonClientError(.protocolError, "the connection to ubqd closed"))
    }
}

extension DaemonClient {
    /// Runs `body` once after `delay` on an event loop's timer (retries of a session),
    /// without a task of its own.
    public static func schedule(after delay: Duration, _ body: @escaping @Sendable () -> Void) {
        let nanoseconds = Int64(delay.components.seconds) * 1_000_000_000 + Int64(delay.components.attoseconds / 1_000_000_000)
        MultiThreadedEventLoopGroup.singleton.next().scheduleTask(in: .nanoseconds(nanoseconds), body)
    }
}
