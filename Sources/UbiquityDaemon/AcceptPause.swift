import Glibc
import Logging
import NIOCore

/// Stops the API socket from spinning when accept(2) fails for want of descriptors.
///
/// SwiftNIO's `AcceptBackoffHandler` (in every server pipeline) delays the next read by a
/// second, but after a failed accept NIO leaves the listening socket registered with epoll,
/// and the connection waiting in the backlog makes it readable again at once: measured with
/// strace, about 7,400 failing `accept4` calls a second, most of a core, for as long as the
/// descriptors stay used up. Turning `autoRead` off takes the socket out of epoll; it is
/// turned on again after `pause`, when NIO's own backoff also reads again. The connection cap
/// (`ConnectionLimits`) keeps connections from using up the descriptors; this covers what the
/// cap cannot: a limit lowered while ubqd runs, descriptors used up elsewhere.
final class AcceptPause: ChannelInboundHandler {
    typealias InboundIn = NIOAny

    private let pause: TimeAmount
    private let logger: Logger
    private var resume: Scheduled<Void>?
    /// When accepting first failed, until a connection is accepted again: one warning per
    /// episode, however long it lasts.
    private var exhaustedSince: NIODeadline?

    init(pause: TimeAmount = .seconds(1), logger: Logger) {
        self.pause = pause
        self.logger = logger
    }

    /// Errors of accept(2) that free descriptors (or memory) will cure.
    static func isExhaustion(_ error: any Error) -> Bool {
        guard let error = error as? IOError else { return false }
        return [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error.errnoCode)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if Self.isExhaustion(error) { pauseAccepting(context, error) }
        context.fireErrorCaught(error)
    }

    /// A connection was accepted.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if let since = exhaustedSince {
            logger.notice("accepting API connections again after \((NIODeadline.now() - since).nanoseconds / 1_000_000) ms")
            exhaustedSince = nil
        }
        context.fireChannelRead(data)
    }

    private func pauseAccepting(_ context: ChannelHandlerContext, _ error: any Error) {
        guard let options = context.channel.syncOptions else { return }
        // Off takes the socket out of epoll only when it was on (NIO acts on a change), and
        // NIO's backoff may have registered it again meanwhile: on, then off, always.
        try? options.setOption(.autoRead, value: true)
        try? options.setOption(.autoRead, value: false)
        if exhaustedSince == nil {
            exhaustedSince = .now()
            logger.warning("cannot accept API connections: \(error); trying again every \(pause.nanoseconds / 1_000_000) ms")
        }
        resume?.cancel()
        resume = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: pause) { [self] in
            resume = nil
            try? context.channel.syncOptions?.setOption(.autoRead, value: true)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        resume?.cancel()
        resume = nil
    }
}
