import APIModel
import DaemonClient
import Foundation
import Synchronization

/// One process's presenter session with ubqd: a long-lived NDJSON stream on which ubqd
/// sends requests and notices (`POST /v1/presenters/connect`), plus one POST per
/// registration and per answer. The event loop reads the stream in the background; no task
/// of ours runs while nothing happens.
///
/// The session opens with the first presenter and closes with the last. If ubqd is not
/// running, or goes away, presenters stay registered here and the session is opened again
/// every `retryInterval` until ubqd answers; they are then registered anew. Reacquirers
/// still waiting when a session ends are run, so no presenter stays relinquished.
public final class PresenterConnection: Sendable {
    let client: DaemonClient
    let program: String
    let retryInterval: Duration
    let state = Mutex(State())

    struct Entry {
        var presenter: any FilePresenter
        var path: [UInt8]
    }

    struct State {
        var entries: [String: Entry] = [:]
        var ids: [ObjectIdentifier: String] = [:]
        /// Presenters whose `add` waits for a session: it registers them itself once the
        /// session opens, so the opening does not too.
        var adding: Set<String> = []
        var session: String?
        var stream: LineStreamConnection?
        var connecting = false
        var retryScheduled = false
        var waiters: [CheckedContinuation<String?, Never>] = []
        /// Reacquirers by request id, then presenter id.
        var reacquirers: [Int: [String: [@Sendable () -> Void]]] = [:]
    }

    public init(socketPath: String, program: String = PresenterConnection.programName, retryInterval: Duration = .seconds(2)) {
        client = DaemonClient(socketPath: socketPath)
        self.program = program
        self.retryInterval = retryInterval
    }

    /// This program's name (the last component of `argv[0]`).
    public static var programName: String {
        let argument0 = CommandLine.arguments.first ?? "?"
        return argument0.split(separator: "/").last.map(String.init) ?? argument0
    }

    /// The presenters registered through this connection.
    public var presenters: [any FilePresenter] { state.withLock { $0.entries.values.map(\.presenter) } }

    /// Registers `presenter` for its `presentedItemURL`; true once ubqd knows of it, false
    /// when ubqd is not running (the presenter is kept and registered when ubqd comes).
    @discardableResult
    public func add(_ presenter: any FilePresenter) async -> Bool {
        guard let url = presenter.presentedItemURL else { return false }
        let path = Self.canonicalPath(url)
        let id = state.withLock { state -> String in
            let id = state.ids[ObjectIdentifier(presenter)] ?? UUID().uuidString
            state.ids[ObjectIdentifier(presenter)] = id
            state.entries[id] = Entry(presenter: presenter, path: path)
            state.adding.insert(id)
            return id
        }
        let opened = await session()
        state.withLock { _ = $0.adding.remove(id) }
        guard let session = opened else { return false }
        let request = PresenterAddRequest(session: session, presenter: id, rawPath: path)
        return (try? await client.post(Route.presentersAdd, body: request, as: [String: Bool].self)) != nil
    }

    /// The id `presenter` is registered under here, if it is.
    public func id(of presenter: any FilePresenter) -> String? {
        state.withLock { $0.ids[ObjectIdentifier(presenter)] }
    }

    /// Unregisters `presenter`; the session closes with the last one.
    public func remove(_ presenter: any FilePresenter) async {
        let (id, session, stream) = state.withLock { state -> (String?, String?, LineStreamConnection?) in
            guard let id = state.ids.removeValue(forKey: ObjectIdentifier(presenter)) else { return (nil, nil, nil) }
            state.entries[id] = nil
            guard state.entries.isEmpty else { return (id, state.session, nil) }
            defer {
                state.stream = nil
                state.session = nil
            }
            return (id, state.session, state.stream)
        }
        guard let id else { return }
        if let stream {
            stream.close()  // ubqd forgets the session's presenters with it
        } else if let session {
            let request = PresenterAddRequest(session: session, presenter: id, rawPath: [])
            _ = try? await client.post(Route.presentersRemove, body: request, as: [String: Bool].self)
        }
    }

    /// The path ubqd compares: symbolic links in the folders resolved, as claims do.
    static func canonicalPath(_ url: URL) -> [UInt8] {
        let folder = url.deletingLastPathComponent().resolvingSymlinksInPath()
        let path = url.path == "/" ? "/" : folder.appendingPathComponent(url.lastPathComponent).path
        return Array(path.utf8)
    }
}
