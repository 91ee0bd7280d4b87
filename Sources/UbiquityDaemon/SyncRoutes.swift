import APIModel
import Foundation
import Hummingbird
import SyncEngine
import SyncPlanning
import UbiquitySettings

/// The sync routes of the local API (docs/API.md, "Sync"). Without a mirror configured
/// they answer with a 409 that says how to set one.
struct SyncRoutes: Sendable {
    let service: SyncService?
    var worker: SyncWorker? { service?.worker }
    /// Waits until every local change made before the call is settled and indexed.
    let waitForWatcher: @Sendable () async throws -> Void

    func register(on router: Router<DaemonRequestContext>) {
        router.get(RouterPath(Route.mirror)) { _, _ in mirrorStatus() }
        router.post(RouterPath(Route.mirrorSync)) { request, context in
            let body = try await request.decode(as: SyncNowRequest.self, context: context)
            if body.confirmDeletes && body.restoreDeletes == true {
                return JSONResponse.error(
                    .badRequest, APIError(error: "bad-request", message: "confirmDeletes publishes the held deletions and restoreDeletes undoes them: give one"))
            }
            return try await answering { worker in
                try await waitForWatcher()
                try await service?.passNow(
                    confirmDeletes: body.confirmDeletes, restoreDeletes: body.restoreDeletes ?? false, full: body.full ?? false)
                return mirrorStatusValue(worker)
            }
        }
        router.get(RouterPath(Route.conflicts)) { _, _ in
            try await answering { worker in try await worker.runForUser { $0.conflicts() } }
        }
        router.post(RouterPath(Route.versions)) { request, context in
            let item = try await request.decode(as: VersionedItem.self, context: context)
            return try await answering { worker in
                try await worker.runForUser { try $0.versions(container: try Self.container(item), path: item.path) }
            }
        }
        router.post(RouterPath(Route.deleted)) { request, context in
            let folder = try await request.decode(as: VersionedItem.self, context: context)
            return try await answering { worker in
                try await worker.runForUser { try $0.deletedItems(container: try Self.container(folder), under: folder.path) }
            }
        }
        router.post(RouterPath(Route.resolve)) { request, context in
            let body = try await request.decode(as: ResolveRequest.self, context: context)
            let choice: ResolutionChoice
            switch Self.resolution(body) {
            case .success(let chosen): choice = chosen
            case .failure(let message): return JSONResponse.error(.badRequest, APIError(error: "bad-request", message: message.text))
            }
            return try await answering { worker in
                try await worker.runForUser { engine in
                    let resolved = try engine.resolve(
                        container: try Self.container(body.item), path: body.item.path, keep: choice,
                        removingOtherVersions: body.removeOtherVersions == true)
                    if resolved { engine.passAll() }
                    return ["resolved": resolved]
                }
            }
        }
        router.post(RouterPath(Route.restore)) { request, context in
            let body = try await request.decode(as: RestoreRequest.self, context: context)
            guard let version = VersionID(body.version) else {
                return JSONResponse.error(.badRequest, APIError(error: "bad-request", message: "\"\(body.version)\" is not a version id (DEVICE:SEQ); see `ubq versions`"))
            }
            return try await answering { worker in
                try await worker.runForUser { engine in
                    try engine.restore(container: try Self.container(body.item), path: body.item.path, version: version)
                }
            }
        }
    }

    private func mirrorStatus() -> Response {
        guard let worker else { return JSONResponse.encode(MirrorStatus(mirror: nil, device: nil, deviceName: nil, containers: [])) }
        return JSONResponse.encode(mirrorStatusValue(worker))
    }

    private func mirrorStatusValue(_ worker: SyncWorker) -> MirrorStatus {
        MirrorStatus(mirror: worker.mirror, device: worker.device.id, deviceName: worker.device.name, containers: worker.status)
    }

    private func withWorker(_ body: (SyncWorker) async throws -> Response) async throws -> Response {
        guard let worker else {
            return JSONResponse.error(.conflict, APIError(error: "no-mirror", message: "sync is off: no mirror is configured (set UBQ_MIRROR, --mirror, or mirror = \"...\" in config.toml)"))
        }
        return try await body(worker)
    }

    /// Runs a call whose `SyncError` is the user's to read: an unknown path or version
    /// (404), a file with changes not synced yet, which the call left alone (409), a mirror
    /// that cannot be used now (503), or a step that failed on a disk (500).
    private func answering(_ body: @escaping (SyncWorker) async throws -> some Encodable) async throws -> Response {
        try await withWorker { worker in
            do {
                return JSONResponse.encode(try await body(worker))
            } catch let error as SyncError {
                let status: HTTPResponse.Status =
                    switch error.code {
                    case .changedMeanwhile: .conflict
                    case .unknownItem: .notFound
                    case .mirrorUnavailable: .serviceUnavailable
                    case .system, .corruptMirror, .ownLogChanged: .internalServerError
                    }
                return JSONResponse.error(status, APIError(error: "sync", message: error.message))
            }
        }
    }

    /// A request's message for a body it cannot act on.
    struct BadRequest: Error {
        var text: String
    }

    /// What a resolve request keeps, or why it makes no sense.
    static func resolution(_ body: ResolveRequest) -> Result<ResolutionChoice, BadRequest> {
        guard let choice = ResolutionChoice(body.keep) else {
            return .failure(BadRequest(text: "--keep takes current, all or a version id (DEVICE:SEQ) from `ubq versions`, not \"\(body.keep)\""))
        }
        guard let only = body.only else { return .success(choice) }
        guard body.removeOtherVersions != true else {
            return .failure(BadRequest(text: "--remove-others removes every other version: it cannot go with --only"))
        }
        guard choice == .current else {
            return .failure(BadRequest(text: "only some conflict versions can be resolved with --keep current, not --keep \(body.keep)"))
        }
        guard !only.isEmpty else { return .failure(BadRequest(text: "--only names no version: give conflict version ids from `ubq conflicts`")) }
        var versions: [VersionID] = []
        for text in only {
            guard let version = VersionID(text) else {
                return .failure(BadRequest(text: "\"\(text)\" is not a version id (DEVICE:SEQ); see `ubq conflicts`"))
            }
            versions.append(version)
        }
        return .success(.resolving(versions))
    }

    private static func container(_ item: VersionedItem) throws -> ContainerID {
        do {
            return try ContainerID(item.container)
        } catch {
            throw SyncError(.unknownItem, "\(item.container) is not a container id: \(error)")
        }
    }
}
