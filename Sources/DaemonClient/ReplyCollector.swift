import Foundation
import NIOCore
import NIOHTTP1

/// Collects one HTTP response from the channel into a promise. Lives on the channel's
/// event loop only.
final class ReplyCollector: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart

    private let reply: EventLoopPromise<HTTPReply>
    private var status: HTTPResponseStatus = .ok
    private var body = ByteBuffer()

    init(reply: EventLoopPromise<HTTPReply>) {
        self.reply = reply
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): status = head.status
        case .body(var part): body.writeBuffer(&part)
        case .end:
            reply.succeed(HTTPReply(status: status, body: Data(body.readableBytesView)))
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        reply.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        // Does nothing if the reply already succeeded.
        reply.fail(DaemonClientError(.protocolError, "ubqd closed the connection before answering"))
    }
}
