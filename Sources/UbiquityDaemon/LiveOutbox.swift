import Synchronization

/// The updates waiting for one live-query client, bounded.
///
/// The index pipeline pushes without waiting (indexing must never wait for a client), and
/// the client's stream writer takes what is pending. A lock, not an actor: the pipeline
/// actor cannot `await` another actor per client per batch without letting one slow
/// client delay the others. Batches are shared arrays: a batch pushed to fifty clients
/// of one query is stored once.
final class LiveOutbox: Sendable {
    /// Why a stream ends.
    enum Ending: Sendable, Equatable {
        /// The client fell `capacity` updates behind.
        case dropped(pending: Int)
        case shuttingDown
        case failed(String)
    }

    enum Delivery: Sendable {
        case updates([[EncodedUpdate]])
        case ended(Ending)
    }

    private struct State {
        var batches: [[EncodedUpdate]] = []
        var pending = 0
        var ending: Ending?
        var waiter: CheckedContinuation<Void, Never>?
    }

    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Adds a batch unless the stream has ended. Returns false when the client had not yet
    /// taken `capacity` earlier updates: the stream has ended as dropped, its pending
    /// updates are released, and the caller should forget the client. (A client that keeps
    /// up takes any batch, however large: the bound is on how far behind it is.)
    func push(_ batch: [EncodedUpdate]) -> Bool {
        let (accepted, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
            guard state.ending == nil else { return (true, nil) }
            guard state.pending < capacity else {
                state.ending = .dropped(pending: state.pending + batch.count)
                state.batches = []
                return (false, Self.takeWaiter(&state))
            }
            state.batches.append(batch)
            state.pending += batch.count
            return (true, Self.takeWaiter(&state))
        }
        waiter?.resume()
        return accepted
    }

    /// Ends the stream; updates already pending are still delivered unless it was dropped.
    func end(_ ending: Ending) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.ending == nil { state.ending = ending }
            return Self.takeWaiter(&state)
        }
        waiter?.resume()
    }

    /// True once the stream has ended (the client hung up, was dropped, or the daemon stops).
    var hasEnded: Bool { state.withLock { $0.ending != nil } }

    /// Waits until updates are pending or the stream ended, then takes everything pending.
    /// Cancelling the waiting task ends the stream.
    func next() async -> Delivery {
        while true {
            if let delivery = take() { return delivery }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let ready = state.withLock { state -> Bool in
                        if !state.batches.isEmpty || state.ending != nil { return true }
                        state.waiter = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            } onCancel: {
                end(.failed("cancelled"))
            }
        }
    }

    /// Everything pending, without waiting (nil when nothing is pending and the stream goes on).
    func take() -> Delivery? {
        state.withLock { state in
            if !state.batches.isEmpty {
                defer {
                    state.batches = []
                    state.pending = 0
                }
                return .updates(state.batches)
            }
            return state.ending.map(Delivery.ended)
        }
    }

    private static func takeWaiter(_ state: inout State) -> CheckedContinuation<Void, Never>? {
        defer { state.waiter = nil }
        return state.waiter
    }
}
