import Foundation
import Synchronization

/// The lines waiting for one presenter session's stream, bounded. The hub pushes without
/// waiting; the session's stream writer takes what is pending. A session that lets
/// `capacity` lines pile up is ended (its process is not reading).
final class LineOutbox: Sendable {
    enum Delivery: Sendable {
        case lines([Data])
        case ended(String)
    }

    private struct State {
        var lines: [Data] = []
        var ending: String?
        var waiter: CheckedContinuation<Void, Never>?
    }

    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    /// Adds a line; false (and the outbox ends) when `capacity` lines were already waiting.
    @discardableResult
    func push(_ line: Data) -> Bool {
        let (accepted, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
            guard state.ending == nil else { return (false, nil) }
            if state.lines.count >= capacity {
                state.ending = "\(capacity) messages were waiting for this session: it does not read them"
                state.lines = []
            } else {
                state.lines.append(line)
            }
            defer { state.waiter = nil }
            return (state.ending == nil, state.waiter)
        }
        waiter?.resume()
        return accepted
    }

    func end(_ reason: String) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.ending == nil { state.ending = reason }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Waits for lines or the end; lines pending at the end are still delivered first.
    func next() async -> Delivery {
        while true {
            if let delivery = take() { return delivery }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let ready = state.withLock { state -> Bool in
                        if !state.lines.isEmpty || state.ending != nil { return true }
                        state.waiter = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            } onCancel: {
                end("cancelled")
            }
        }
    }

    private func take() -> Delivery? {
        state.withLock { state in
            if !state.lines.isEmpty {
                defer { state.lines = [] }
                return .lines(state.lines)
            }
            return state.ending.map(Delivery.ended)
        }
    }
}
