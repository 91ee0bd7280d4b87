import APIModel
import Foundation
import Glibc
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// The API socket's gate (DESIGN.md, decision 8): every accepted connection's peer uid is
/// read with SO_PEERCRED, and a connection from another user is answered 403, logged and
/// closed before any route sees it. The socket's 0600 mode already keeps other users out;
/// this holds even when the socket or its folder was opened up by mistake.
struct PeerCheckedChannel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let base: HTTP1Channel
    let allowedUID: uid_t
    let logger: Logger
    /// How long a refused client may take to send its request line before it is hung up on.
    let refusalTimeout: Duration = .seconds(5)

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        let peer: PeerCredentials
        do {
            peer = try await Self.credentials(of: value.channel)
        } catch {
            self.logger.warning("refused a connection whose peer cannot be identified (SO_PEERCRED: \(error))")
            try? await value.channel.close()
            return
        }
        guard peer.uid == allowedUID else { return await refuse(value, peer) }
        await base.handle(value: value, logger: logger)
    }

    static func credentials(of channel: any Channel) async throws -> PeerCredentials {
        guard let provider = channel as? SocketOptionProvider else { throw PeerCredentialError.unsupportedChannel }
        return try await provider.unsafeGetSocketOption(level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED)).get()
    }

    /// Answers the first request with 403 and closes. Waits for that request (briefly) so
    /// that the client reads an answer rather than a reset.
    private func refuse(_ value: Value, _ peer: PeerCredentials) async {
        let message = "ubqd serves only its own user (uid \(allowedUID)); this connection comes from uid \(peer.uid)"
        logger.warning("refused a connection from uid \(peer.uid) (pid \(peer.pid)): only uid \(allowedUID) may use the API socket")
        let body = ByteBuffer(bytes: JSONResponse.body(APIError(error: "forbidden", message: message)))
        try? await value.executeThenClose { inbound, outbound in
            _ = try await Self.firstRequestHead(inbound, timeout: refusalTimeout)
            try await outbound.write(.head(HTTPResponse(status: .forbidden, headerFields: [
                .contentType: "application/json", .contentLength: String(body.readableBytes), .connection: "close",
            ])))
            try await outbound.write(.body(body))
            try await outbound.write(.end(nil))
        }
    }

    private static func firstRequestHead<Inbound: AsyncSequence & Sendable>(_ inbound: Inbound, timeout: Duration) async throws -> Bool
    where Inbound.Element: Sendable {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                for try await _ in inbound { return true }
                return false
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return false
            }
            defer { group.cancelAll() }
            return try await group.next() ?? false
        }
    }
}

/// `struct ucred` of <sys/socket.h>, which the Glibc module hides behind _GNU_SOURCE: three
/// 32-bit fields, laid out alike in C and Swift.
struct PeerCredentials: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}

enum PeerCredentialError: Error, CustomStringConvertible {
    case unsupportedChannel
    var description: String { "the connection is not a socket channel" }
}
