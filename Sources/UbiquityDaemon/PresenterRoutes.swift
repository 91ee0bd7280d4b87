import APIModel
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// The file presenter routes and the coordinated-access announcements (docs/API.md).
struct PresenterRoutes: Sendable {
    let hub: PresenterHub
    let logger: Logger
    /// The longest a coordinator may ask ubqd to wait for presenters.
    static let longestDeadline = 60.0
    static let defaultDeadline = 5.0

    func register(on router: Router<DaemonRequestContext>) {
        router.get(RouterPath(Route.presenters)) { _, _ in JSONResponse.encode(await hub.list()) }
        router.post(RouterPath(Route.presentersConnect)) { request, context in try await connect(request, context) }
        router.post(RouterPath(Route.presentersAdd)) { request, context in
            let body = try await request.decode(as: PresenterAddRequest.self, context: context)
            return await answer { () throws(APIError) in
                try await hub.add(session: body.session, presenter: body.presenter, path: Array(body.rawPath))
                return ["registered": true]
            }
        }
        router.post(RouterPath(Route.presentersRemove)) { request, context in
            let body = try await request.decode(as: PresenterAddRequest.self, context: context)
            return await answer { () throws(APIError) in
                try await hub.remove(session: body.session, presenter: body.presenter)
                return ["removed": true]
            }
        }
        router.post(RouterPath(Route.presentersReply)) { request, context in
            let body = try await request.decode(as: PresenterReply.self, context: context)
            return JSONResponse.encode(["inTime": await hub.reply(body)])
        }
        router.post(RouterPath(Route.coordinationBegin)) { request, context in try await begin(request, context) }
        router.post(RouterPath(Route.coordinationEnd)) { request, context in
            let body = try await request.decode(as: AccessEndRequest.self, context: context)
            return await answer { () throws(APIError) in
                AccessEndResponse(notified: try await hub.end(body.access, accessed: body.accessed, moves: body.moves))
            }
        }
    }

    private func answer(_ body: () async throws(APIError) -> some Encodable) async -> Response {
        do {
            return JSONResponse.encode(try await body())
        } catch {
            return JSONResponse.error(.notFound, error)
        }
    }

    private func begin(_ request: Request, _ context: DaemonRequestContext) async throws -> Response {
        let body = try await request.decode(as: AccessBeginRequest.self, context: context)
        let seconds = body.deadline ?? Self.defaultDeadline
        guard seconds >= 0, seconds <= Self.longestDeadline else {
            return JSONResponse.error(.badRequest, APIError(error: "deadline", message: "deadline must be between 0 and \(Int(Self.longestDeadline)) seconds, not \(seconds)"))
        }
        let peer = try await PeerCheckedChannel.credentials(of: context.channel)
        let answer = await hub.begin(body.items, pid: peer.pid, madeFor: body.presenter, deadline: .milliseconds(Int64(seconds * 1000)))
        return JSONResponse.encode(answer)
    }

    /// `POST /v1/presenters/connect`: the session's stream, open until the process closes
    /// it, dies, or ubqd stops.
    private func connect(_ request: Request, _ context: DaemonRequestContext) async throws -> Response {
        let body = try await request.decode(as: PresenterConnectRequest.self, context: context)
        let peer = try await PeerCheckedChannel.credentials(of: context.channel)
        let session = await hub.connect(pid: peer.pid, program: body.program ?? Self.programName(of: peer.pid))
        context.channel.closeFuture.whenComplete { [outbox = session.outbox] _ in outbox.end("the client disconnected") }
        let hub = self.hub
        return Response(
            status: .ok, headers: [.contentType: "application/x-ndjson"],
            body: ResponseBody { writer in
                do {
                    try await withGracefulShutdownHandler {
                        try await Self.write(session, &writer)
                    } onGracefulShutdown: { [outbox = session.outbox] in
                        outbox.end("ubqd is stopping")
                    }
                } catch {
                    await hub.disconnect(session.id)
                    throw error
                }
                await hub.disconnect(session.id)
            })
    }

    private static func write(_ session: PresenterHub.Session, _ writer: inout any ResponseBodyWriter) async throws {
        try await writer.write(ByteBuffer(bytes: PresenterHub.encode(PresenterLine(kind: .connected, session: session.id))))
        while true {
            switch await session.outbox.next() {
            case .items(let lines): try await writer.write(ByteBuffer(bytes: lines.reduce(Data(), +)))
            case .ended(let reason):
                try? await writer.write(ByteBuffer(bytes: PresenterHub.encode(PresenterLine(kind: .closed, reason: reason))))
                try await writer.finish(nil)
                return
            }
        }
    }

    /// `/proc/PID/comm`: the name the kernel knows the process by.
    static func programName(of pid: Int32) -> String {
        let comm = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? "?"
        return comm.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
