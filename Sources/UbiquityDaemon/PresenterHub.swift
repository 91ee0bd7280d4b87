import APIModel
import Foundation
import Logging
import PresenterPlanning

/// The file presenters of every process, and the coordinated accesses they are being asked
/// about (docs/API.md, "File presenters"). Each process has one session: a stream on which
/// the hub sends requests and notices, ended when the process closes it or dies (then its
/// presenters are forgotten and nobody waits for them). While any presenter is registered,
/// the file `markerPath` exists, so that coordinators know it is worth asking.
///
/// Which presenter hears what is decided by `PresenterPlanning`; the hub only keeps state,
/// sends lines and waits for answers.
actor PresenterHub {
    struct Session {
        let id: String
        let pid: Int32
        let program: String
        let outbox: LineOutbox
        var presenters: [String: Registration] = [:]
    }

    struct Registration {
        var path: [UInt8]
        var since: Date
        /// The presented item's device and inode when last seen, to recognize it after a
        /// plain `mv` (the watcher reports a removal and an appearance).
        var identity: FileStamp.Identity?
    }

    let markerPath: String
    let logger: Logger
    var sessions: [String: Session] = [:]
    var asks: [Int: Ask] = [:]
    var accesses: [Int: Access] = [:]
    /// What each written item looked like when its access ended, and each presented item
    /// when its presenters were last told of a change, so that the watcher's echo of that
    /// state is not told again as a change nobody coordinated.
    var announced: [[UInt8]: (stamp: FileStamp, at: ContinuousClock.Instant)] = [:]
    var lastID = 0
    /// Presented items the watcher saw vanish, kept a moment in case their inode turns up
    /// at a new path in a later batch (a plain `mv` may settle as two batches).
    var vanished: [[UInt8]: (identity: FileStamp.Identity, at: ContinuousClock.Instant)] = [:]
    /// How long a vanished presented item may wait for its inode to reappear.
    let moveWindow: Duration = .milliseconds(500)

    init(markerPath: String, logger: Logger) {
        self.markerPath = markerPath
        self.logger = logger
        unlink(markerPath)  // a marker left by a daemon that died
    }

    func nextID() -> Int {
        lastID += 1
        return lastID
    }

    /// Opens a session for the process `pid`; its stream writer reads `outbox`.
    func connect(pid: Int32, program: String) -> Session {
        let session = Session(id: "\(pid)-\(nextID())", pid: pid, program: program, outbox: LineOutbox())
        sessions[session.id] = session
        logger.info("presenter session \(session.id) opened by pid \(pid) (\(program))")
        return session
    }

    /// Forgets a session and its presenters; answers nobody will give are no longer awaited.
    func disconnect(_ id: String) {
        guard let session = sessions.removeValue(forKey: id) else { return }
        session.outbox.end("the session ended")
        for presenter in session.presenters.keys { answered(PresenterID(session: id, presenter: presenter), in: nil) }
        logger.info("presenter session \(id) of pid \(session.pid) closed; \(session.presenters.count) presenters forgotten")
        updateMarker()
    }

    func add(session id: String, presenter: String, path: [UInt8]) throws(APIError) {
        guard sessions[id] != nil else { throw Self.noSession(id) }
        let known = sessions[id]?.presenters[presenter]
        // A presenter registered again at the same path (a reconnecting client registers
        // every presenter, an `add` waiting for that connection too) keeps the inode it
        // was first seen with: the file may have been moved since, and that inode is what
        // recognizes it at its new path.
        let sameItem = known?.path == path ? known?.identity : nil
        let registration = Registration(path: path, since: known?.since ?? Date(), identity: sameItem ?? FileStamp(path)?.identity)
        sessions[id]?.presenters[presenter] = registration
        logger.debug("presenter \(id)/\(presenter) presents \(String(decoding: path, as: UTF8.self))")
        updateMarker()
    }

    func remove(session id: String, presenter: String) throws(APIError) {
        guard sessions[id] != nil else { throw Self.noSession(id) }
        sessions[id]?.presenters[presenter] = nil
        answered(PresenterID(session: id, presenter: presenter), in: nil)
        updateMarker()
    }

    static func noSession(_ id: String) -> APIError {
        APIError(error: "no-session", message: "no presenter session \(id): it ended (connect again with POST /v1/presenters/connect)")
    }

    /// Every registered presenter, for `GET /v1/presenters`.
    func list() -> [PresenterInfo] {
        sessions.values.flatMap { session in
            session.presenters.map { id, registration in
                PresenterInfo(
                    pid: session.pid, program: session.program, rawPath: registration.path,
                    since: ISO8601.format(referenceSeconds: registration.since.timeIntervalSinceReferenceDate),
                    session: session.id, presenter: id)
            }
        }.sorted { ($0.since, $0.presenter) < ($1.since, $1.presenter) }
    }

    var presences: [Presence] {
        sessions.values.flatMap { session in
            session.presenters.map { Presence(id: PresenterID(session: session.id, presenter: $0.key), pid: session.pid, path: $0.value.path) }
        }
    }

    func info(_ id: PresenterID) -> SkippedPresenter {
        let session = sessions[id.session]
        let path = session?.presenters[id.presenter]?.path ?? []
        return SkippedPresenter(pid: session?.pid ?? 0, program: session?.program ?? "?", path: String(decoding: path, as: UTF8.self))
    }

    /// Sends each plan as one line (a request when `request` is set and it asks something).
    func send(_ plans: [PresenterPlan], request: Int?, asking: Bool) {
        for plan in plans {
            let id = plan.presence.id
            let line = PresenterLine(
                kind: asking ? .request : .notice, request: request, presenter: id.presenter, messages: plan.messages)
            guard let session = sessions[id.session] else { continue }
            if !session.outbox.push(Self.encode(line)) {
                logger.warning("presenter session \(id.session) of pid \(session.pid) dropped: it does not read its messages")
                disconnect(id.session)
            }
            follow(plan)
        }
    }

    /// A presenter told that its item moved presents the new path from now on.
    private func follow(_ plan: PresenterPlan) {
        for message in plan.messages where message.kind == .didMove {
            guard let path = message.rawPath else { continue }
            sessions[plan.presence.id.session]?.presenters[plan.presence.id.presenter]?.path = Array(path)
        }
    }

    private func updateMarker() {
        if sessions.values.contains(where: { !$0.presenters.isEmpty }) {
            let fd = open(markerPath, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
            if fd >= 0 { close(fd) }
        } else {
            unlink(markerPath)
        }
    }
}

extension PresenterHub {
    static func encode(_ line: PresenterLine) -> Data {
        LiveLines.json(line) + Data([0x0A])
    }
}
