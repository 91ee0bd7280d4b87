import SyncEngine
import Synchronization

/// A user's request to the sync thread (`ubq sync`, `versions`, `deleted`, `conflicts`, `resolve`,
/// `restore`) when the mirror does not answer: a network share whose server went away
/// blocks the call waiting on it, and every call queued behind it. Without an answer the
/// user would wait in silence for as long as that lasts; here the request fails once the
/// mirror's silence is past its limit (`SyncEngine.mirrorSilence`), saying so: exit 75.
extension SyncWorker {
    /// How often a waiting request looks at the mirror's silence.
    static let silenceCheckInterval = Duration.milliseconds(250)

    /// Runs `body` as `run` does, with a probe asking the mirror while it runs, but answers
    /// with a `mirrorUnavailable` error once the mirror has stopped answering. A request still
    /// queued then is dropped: it never runs, and the message says nothing was done. One
    /// already running cannot be taken back: it runs on when the mirror answers, and the
    /// message says that.
    func runForUser<T: Sendable>(_ body: @Sendable @escaping (SyncEngine) throws -> T) async throws -> T {
        let call = UserCall<T>()
        let mirror = self.mirror
        return try await withCheckedThrowingContinuation { continuation in
            call.wait(continuation)
            enqueue { engine -> Result<T, any Error>? in
                guard call.start() else { return nil }
                return Result { try engine.probingMirror { try body(engine) } }
            } then: { result in
                if let result { call.finish(result) }
            }
            Task {
                while !call.isAnswered {
                    if let silence = mirrorSilence {
                        call.giveUp { started in Self.silenceError(mirror: mirror, silence: silence, started: started) }
                        return
                    }
                    try? await Task.sleep(for: Self.silenceCheckInterval)
                }
            }
        }
    }

    static func silenceError(mirror: String, silence: Duration, started: Bool) -> SyncError {
        let outcome =
            started
            ? "the request was under way: ubqd carries it through when the mirror answers (ask again then to see its result)"
            : "nothing was done: try again when it answers (`ubq status` says when)"
        return SyncError(.mirrorUnavailable, SyncEngine.unansweredNote(mirror: mirror, waited: silence) + "; " + outcome)
    }
}

/// One user's request and who answers it first: the call itself, or the mirror's silence.
/// The continuation is resumed once, by whichever comes first.
final class UserCall<T: Sendable>: Sendable {
    private enum Stage {
        case queued, running, answered
    }

    private struct State {
        var stage = Stage.queued
        var continuation: CheckedContinuation<T, any Error>?
    }

    private let state = Mutex(State())

    func wait(_ continuation: CheckedContinuation<T, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    var isAnswered: Bool { state.withLock { $0.stage == .answered } }

    /// On the sync thread, before the call: whether it may run (not when given up on).
    func start() -> Bool {
        state.withLock { state in
            guard state.stage == .queued else { return false }
            state.stage = .running
            return true
        }
    }

    /// The call's result, unless the user was already answered.
    func finish(_ result: Result<T, any Error>) {
        answer { _ in result }
    }

    /// Answers with `error`, given whether the call had started, unless it was answered.
    func giveUp(_ error: (_ started: Bool) -> any Error) {
        answer { stage in .failure(error(stage == .running)) }
    }

    private func answer(_ result: (Stage) -> Result<T, any Error>) {
        let (continuation, outcome) = state.withLock { state -> (CheckedContinuation<T, any Error>?, Result<T, any Error>?) in
            guard state.stage != .answered, let continuation = state.continuation else { return (nil, nil) }
            let outcome = result(state.stage)
            state.stage = .answered
            state.continuation = nil
            return (continuation, outcome)
        }
        if let continuation, let outcome { continuation.resume(with: outcome) }
    }
}
