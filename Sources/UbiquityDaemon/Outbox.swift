import Synchronization

/// What waits for one streaming client (a live query, a presenter session), bounded.
///
/// Producers push without waiting (the index pipeline and the presenter hub must never
/// wait for a client), and the client's stream writer takes everything pending at once. A
/// lock, not an actor: a producer cannot `await` another actor per client without letting
/// one slow client delay the others.
final class Outbox<Item: Sendable, Ending: Sendable>: Sendable {
    enum Delivery: Sendable {
        case items([Item])
        case ended(Ending)
    }

    private struct State {
        var items: [Item] = []
        /// The weight of `items` (a live-query batch weighs its number of updates).
        var pending = 0
        var ending: Ending?
        var waiter: CheckedContinuation<Void, Never>?
    }

    let capacity: Int
    /// How the outbox ends when a push finds `capacity` already pending (given the pending
    /// weight, the new item's included).
    private let overflow: @Sendable (_ pending: Int) -> Ending
    /// How it ends when the task waiting in `next()` is cancelled.
    private let cancelled: Ending
    private let state = Mutex(State())

    init(capacity: Int, overflow: @escaping @Sendable (_ pending: Int) -> Ending, cancelled: Ending) {
        self.capacity = capacity
        self.overflow = overflow
        self.cancelled = cancelled
    }

    /// Adds an item unless the outbox has ended. Returns false when the client had not yet
    /// taken `capacity` earlier weight: the outbox has ended by overflow, what was pending is
    /// released, and the caller should forget the client. (A client that keeps up takes any
    /// item, however heavy: the bound is on how far behind it is.)
    func push(_ item: Item, weight: Int) -> Bool {
        let (accepted, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
            guard state.ending == nil else { return (true, nil) }
            guard state.pending < capacity else {
                state.ending = overflow(state.pending + weight)
                state.items = []
                return (false, Self.takeWaiter(&state))
            }
            state.items.append(item)
            state.pending += weight
            return (true, Self.takeWaiter(&state))
        }
        waiter?.resume()
        return accepted
    }

    /// Ends the stream (the first ending stays); items already pending are still delivered
    /// unless it overflowed.
    func end(_ ending: Ending) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.ending == nil { state.ending = ending }
            return Self.takeWaiter(&state)
        }
        waiter?.resume()
    }

    /// True once the stream has ended.
    var hasEnded: Bool { state.withLock { $0.ending != nil } }

    /// Waits until items are pending or the stream ended, then takes everything pending.
    /// Cancelling the waiting task ends the stream.
    func next() async -> Delivery {
        while true {
            if let delivery = take() { return delivery }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let ready = state.withLock { state -> Bool in
                        if !state.items.isEmpty || state.ending != nil { return true }
                        state.waiter = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            } onCancel: {
                end(cancelled)
            }
        }
    }

    /// Everything pending, without waiting (nil when nothing is pending and the stream goes on).
    func take() -> Delivery? {
        state.withLock { state in
            if !state.items.isEmpty {
                defer {
                    state.items = []
                    state.pending = 0
                }
                return .items(state.items)
            }
            return state.ending.map(Delivery.ended)
        }
    }

    private static func takeWaiter(_ state: inout State) -> CheckedContinuation<Void, Never>? {
        defer { state.waiter = nil }
        return state.waiter
    }
}
