import APIModel
import Foundation
import Hummingbird
import Indexing
import Logging
import MetadataIndex
import RawPaths
import UbiquitySettings
import Watching

/// The handlers of the local API (see `docs/API.md`).
struct APIRoutes: Sendable {
    let settings: Settings
    let index: MetadataIndex
    let pipeline: IndexPipeline
    let watcher: InotifyWatcher
    let logger: Logger
    /// How many updates may wait for a live-query client before it is dropped.
    let liveQueryCapacity: Int
    /// How long a query waits for its sync cookie before answering anyway (watchman's
    /// default sync timeout). Only a stuck watcher makes it expire: under a burst of
    /// changes the cookie simply queues behind them.
    let syncTimeout: Duration = .seconds(60)

    func register(on router: Router<DaemonRequestContext>) {
        router.get(RouterPath(Route.status)) { _, _ in try await status() }
        router.get(RouterPath(Route.containers)) { _, _ in try containers() }
        for subject in QuerySubject.allCases {
            router.post(RouterPath(subject.route)) { request, context in try await query(request, context, subject: subject) }
        }
        router.post(RouterPath(Route.item)) { request, context in try await item(request, context) }
        router.post(RouterPath(Route.watch)) { request, context in try await watch(request, context) }
        router.post(RouterPath(Route.sync)) { _, _ in
            try await waitForWatcher()
            return JSONResponse.encode(["synced": true])
        }
    }

    private func status() async throws -> Response {
        let counts = try index.counts()
        let pending = await pipeline.pendingCount
        let items = counts.values.reduce(0, +)
        let containerCount = settings.containers(discovered: ContainerDiscovery.folderNames(in: RawPath(settings.root))).count
        let contentPending = try index.pendingContentCount()
        let indexError = await pipeline.indexError
        return JSONResponse.encode(DaemonStatus(
            version: DaemonVersion.current, pid: getpid(), root: settings.root, containers: containerCount, items: items,
            pending: pending, watchedFolders: watcher.watchedFolderCount,
            polledFolders: watcher.polledFolderCount, contentPending: contentPending, indexError: indexError,
            summary: StatusLine.text(
                containers: containerCount, items: items, pending: pending, contentPending: contentPending, indexError: indexError)))
    }

    private func containers() throws -> Response {
        let counts = try index.counts()
        let list = settings.containers(discovered: ContainerDiscovery.folderNames(in: RawPath(settings.root))).map {
            ContainerInfo(id: $0.id.identifier, url: $0.folder, documents: $0.documents, items: counts[$0.id.identifier] ?? 0)
        }
        return JSONResponse.encode(list)
    }

    private func query(_ request: Request, _ context: DaemonRequestContext, subject: QuerySubject) async throws -> Response {
        let body = try await request.decode(as: QueryRequest.self, context: context)
        let plan: QueryPlan
        do {
            plan = try QueryPlan(body, subject: subject)
        } catch {
            return JSONResponse.error(.badRequest, APIError(error: error.kind, message: error.message, position: error.position))
        }
        if body.sync && !body.explain {
            try await waitForWatcher()
            if plan.dependsOnContent { await pipeline.waitForContent() }
        }
        do {
            return JSONResponse.encode(try index.run(plan))
        } catch let error as QueryPlanError {
            return JSONResponse.error(.badRequest, APIError(error: error.kind, message: error.message))
        }
    }

    private func item(_ request: Request, _ context: DaemonRequestContext) async throws -> Response {
        let body = try await request.decode(as: ItemRequest.self, context: context)
        try await waitForWatcher()
        let path = RawPath(bytes: body.rawPath).lexicallyNormalized()
        let layout = ContainerLayout(root: RawPath(settings.root))
        guard path.isSame(orBelow: layout.root), let location = layout.locate(path.droppingFirst(layout.root.components.count)),
            let item = try index.item(container: location.container.identifier, relativePath: location.relativePath)
        else {
            return JSONResponse.error(.notFound, APIError(error: "not-found", message: "\(path.readable) is not an indexed item of a container under \(settings.root)"))
        }
        return JSONResponse.encode(item)
    }

    /// Waits until every change completed before this call is in the index.
    func waitForWatcher() async throws {
        let pipeline = self.pipeline
        let cookie = await pipeline.nextCookieName()
        let timeout = syncTimeout
        let logger = self.logger
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await pipeline.createCookieAndWait(cookie) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                if !Task.isCancelled {
                    logger.warning("sync cookie \(cookie) not seen after \(timeout); answering without it")
                    await pipeline.abandonCookie(cookie)
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }
}

/// Builds JSON responses.
enum JSONResponse {
    static func encode(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let data = body(value)
        return Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func error(_ status: HTTPResponse.Status, _ error: APIError) -> Response {
        encode(error, status: status)
    }

    static func body(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)) ?? Data(#"{"error":"internal","message":"could not encode the response"}"#.utf8)
    }
}
