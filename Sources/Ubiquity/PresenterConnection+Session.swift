import APIModel
import DaemonClient
import Foundation

extension PresenterConnection {
    /// The current session id, opening the stream if needed; nil when ubqd does not answer.
    func session() async -> String? {
        await withCheckedContinuation { continuation in
            let (ready, mustConnect) = state.withLock { state -> (String?, Bool) in
                if let session = state.session { return (session, false) }
                state.waiters.append(continuation)
                defer { state.connecting = true }
                return (nil, !state.connecting)
            }
            if let ready { return continuation.resume(returning: ready) }
            if mustConnect { connect() }
        }
    }

    func connect() {
        client.openLineStream(
            Route.presentersConnect, body: PresenterConnectRequest(program: program),
            line: { [weak self] line in self?.received(line) },
            ended: { [weak self] _ in self?.sessionEnded() },
            opened: { [weak self] result in
                guard let self else { return }
                switch result {
                case .success(let connection): state.withLock { $0.stream = connection }
                case .failure: connectionFailed()
                }
            })
    }

    /// The first line names the session: waiting `add` calls go on, each registering its
    /// presenter, and the other presenters (after a reconnect, all) are registered again.
    func connected(_ session: String) {
        let (waiters, entries) = state.withLock { state in
            state.session = session
            state.connecting = false
            defer { state.waiters = [] }
            return (state.waiters, state.entries.filter { !state.adding.contains($0.key) })
        }
        for (id, entry) in entries {
            let request = PresenterAddRequest(session: session, presenter: id, rawPath: entry.path)
            client.postDetached(Route.presentersAdd, body: request) { _ in }
        }
        for waiter in waiters { waiter.resume(returning: session) }
    }

    private func connectionFailed() {
        let waiters = state.withLock { state in
            state.connecting = false
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: nil) }
        scheduleRetry()
    }

    /// The stream ended (ubqd stopped, or we closed it): give back every relinquished item.
    func sessionEnded() {
        let (reacquirers, waiters) = state.withLock { state in
            state.session = nil
            state.stream = nil
            state.connecting = false
            defer {
                state.reacquirers = [:]
                state.waiters = []
            }
            return (state.reacquirers.values.flatMap { $0.values.joined() }, state.waiters)
        }
        for reacquire in reacquirers { reacquire() }
        for waiter in waiters { waiter.resume(returning: nil) }
        scheduleRetry()
    }

    /// Opens the session again later while presenters remain (on the event loop's timer).
    private func scheduleRetry() {
        let schedule = state.withLock { state -> Bool in
            guard !state.entries.isEmpty, !state.retryScheduled, state.session == nil else { return false }
            state.retryScheduled = true
            return true
        }
        guard schedule else { return }
        DaemonClient.schedule(after: retryInterval) { [weak self] in
            guard let self else { return }
            let connect = state.withLock { state -> Bool in
                state.retryScheduled = false
                guard !state.entries.isEmpty, state.session == nil, !state.connecting else { return false }
                state.connecting = true
                return true
            }
            if connect { self.connect() }
        }
    }
}
