import Foundation
import Glibc
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// The local API's HTTP server on its Unix socket (DESIGN.md, decision 8), with the limits
/// that keep clients from hurting the daemon: the peer check, the body size limit, the idle
/// timeout, the connection cap, and a pause in accepting when the process runs out of
/// descriptors (`AcceptPause`).
struct APIServer {
    let socketPath: String
    let limits: ConnectionLimits
    let notifier: SystemdNotifier
    let logger: Logger

    /// Connections the kernel holds for ubqd to accept: enough for a burst of clients
    /// (a thousand scripts at once) to wait rather than be refused.
    static let backlog = 1024

    /// `status` gives the STATUS= line sent with READY once the server listens; `ready` is
    /// opened then.
    func make(
        routes: APIRoutes, syncRoutes: SyncRoutes, presenterRoutes: PresenterRoutes, status: @escaping @Sendable () async -> String,
        ready: ReadyLatch
    ) throws -> some Service {
        try removeStaleSocket()
        let router = Router(context: DaemonRequestContext.self)
        router.add(middleware: APIErrorMiddleware(logger: logger))
        routes.register(on: router)
        syncRoutes.register(on: router)
        presenterRoutes.register(on: router)
        let (socketPath, notifier, logger) = (self.socketPath, self.notifier, self.logger)
        let owner = getuid()
        let http = HTTP1Channel.Configuration(idleTimeout: .nanoseconds(Int64(limits.idleTimeout / .nanoseconds(1))))
        logger.info("API limits: \(limits), request bodies up to \(DaemonRequestContext.maximumBodySize) bytes")
        return Application(
            router: router,
            server: HTTPServerBuilder { responder in
                PeerCheckedChannel(base: HTTP1Channel(responder: responder, configuration: http), allowedUID: owner, logger: logger)
            },
            configuration: .init(
                address: .unixDomainSocket(path: socketPath), serverName: "ubqd", backlog: Self.backlog,
                availableConnectionsDelegate: .maximum(limits.maximumConnections, logger: logger)),
            onServerRunning: { channel in
                await Self.pauseAcceptingWhenExhausted(channel, logger: logger)
                chmod(socketPath, 0o600)
                logger.info("listening on \(socketPath)")
                notifier.notify("READY=1", "STATUS=\(await status())", "MAINPID=\(getpid())")
                ready.open()
            },
            logger: logger)
    }

    /// Adds `AcceptPause` to the listening socket's pipeline, first, so that it sees accept
    /// errors before NIO's backoff handler (which swallows them).
    private static func pauseAcceptingWhenExhausted(_ channel: any Channel, logger: Logger) async {
        do {
            try await channel.eventLoop.submit {
                try channel.pipeline.syncOperations.addHandler(AcceptPause(logger: logger), position: .first)
            }.get()
        } catch {
            logger.warning("cannot guard the API socket against running out of descriptors: \(error)")
        }
    }

    /// A socket file left by a daemon that died. Safe to remove: the instance lock says
    /// no other daemon uses this state folder.
    private func removeStaleSocket() throws {
        var info = stat()
        guard lstat(socketPath, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFSOCK else {
            throw DaemonError(message: "\(socketPath) exists and is not a socket; remove it or set UBQ_RUNTIME_DIR")
        }
        unlink(socketPath)
    }
}
