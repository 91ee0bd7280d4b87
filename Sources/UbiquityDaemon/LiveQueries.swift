import APIModel
import Logging
import MetadataIndex
import PredicateKit

/// One client of a live query: where its updates wait, and how to hang up on it.
struct LiveSubscriber: Sendable {
    let id: Int
    let outbox: LiveOutbox
    /// Closes the client's connection, which ends a write stuck on a client that stopped
    /// reading.
    let hangUp: @Sendable () -> Void
}

/// The live queries the daemon serves, owned by the index pipeline so that gathering and
/// every later batch of changes see the index in one order.
///
/// Clients asking the same query share one `LiveQueryState`: each batch is evaluated and
/// encoded once per query, not once per client.
struct LiveQueries {
    private struct Group {
        var state: LiveQueryState
        var subscribers: [Int: LiveSubscriber] = [:]
    }

    private var groups: [LiveQueryKey: Group] = [:]
    private var keyOfSubscriber: [Int: LiveQueryKey] = [:]
    /// Each new client's initial answer, until its stream writer takes it: the answer
    /// can be large, and must not live as long as the stream.
    private var gatheredOfSubscriber: [Int: [TrackedItem]] = [:]
    private var lastID = 0
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    var isEmpty: Bool { keyOfSubscriber.isEmpty }

    /// Gathers the query's items (for `takeGathered`) and registers a client for its
    /// updates. Returns the client and how many items were gathered.
    mutating func subscribe(_ plan: QueryPlan, index: MetadataIndex, capacity: Int, hangUp: @escaping @Sendable () -> Void) throws -> (LiveSubscriber, Int) {
        let key = LiveQueryKey(plan)
        let gathered = try index.gather(plan)
        lastID += 1
        let subscriber = LiveSubscriber(id: lastID, outbox: LiveOutbox(capacity: capacity), hangUp: hangUp)
        groups[key, default: Group(state: LiveQueryState(plan: plan, gathered: gathered))].subscribers[subscriber.id] = subscriber
        keyOfSubscriber[subscriber.id] = key
        gatheredOfSubscriber[subscriber.id] = gathered
        return (subscriber, gathered.count)
    }

    /// The client's initial answer, once.
    mutating func takeGathered(_ id: Int) -> [TrackedItem] {
        gatheredOfSubscriber.removeValue(forKey: id) ?? []
    }

    mutating func unsubscribe(_ id: Int) {
        gatheredOfSubscriber[id] = nil
        guard let key = keyOfSubscriber.removeValue(forKey: id) else { return }
        groups[key]?.subscribers[id] = nil
        if groups[key]?.subscribers.isEmpty == true { groups[key] = nil }
    }

    /// Turns a batch of index changes into each query's updates and hands them to its
    /// clients. A client too far behind is dropped here, without waiting for it.
    mutating func publish(_ changes: AppliedChanges, index: MetadataIndex) {
        guard !changes.isEmpty else { return }
        forgetEndedStreams()
        for key in Array(groups.keys) {
            let updates: [LiveUpdate]?
            do {
                // In place: the matching set is not copied per batch.
                updates = try groups[key]?.state.updates(for: changes, in: index)
            } catch {
                // The query's memory no longer follows the index: end its streams; the
                // clients can start over.
                logger.error("live query \(key.summary) failed: \(error); ending its \(groups[key]?.subscribers.count ?? 0) streams")
                end(key, .failed("the live query failed: \(error)"))
                continue
            }
            guard let updates, !updates.isEmpty, let subscribers = groups[key]?.subscribers.values else { continue }
            deliver(updates.map(EncodedUpdate.init), to: subscribers)
        }
    }

    private mutating func deliver(_ batch: [EncodedUpdate], to subscribers: some Sequence<LiveSubscriber>) {
        for subscriber in subscribers where !subscriber.outbox.push(batch) {
            logger.warning("live query client \(subscriber.id) dropped: \(subscriber.outbox.capacity) updates were already waiting for it")
            subscriber.hangUp()
            unsubscribe(subscriber.id)
        }
    }

    /// Clients whose connection closed before their stream writer noticed.
    private mutating func forgetEndedStreams() {
        for group in groups.values {
            for subscriber in group.subscribers.values where subscriber.outbox.hasEnded { unsubscribe(subscriber.id) }
        }
    }

    private mutating func end(_ key: LiveQueryKey, _ ending: LiveEnding) {
        guard let subscribers = groups[key]?.subscribers.values else { return }
        for subscriber in subscribers {
            subscriber.outbox.end(ending)
            unsubscribe(subscriber.id)
        }
    }
}

/// What makes two live queries the same query: equal predicates compiled to equal SQL and
/// residual (`now()` and `$time` resolved), over the same containers, scope and attributes.
struct LiveQueryKey: Hashable {
    var predicate: String?
    var containers: [String]
    var scope: SearchScope
    var attributes: [String]
    var whereClause: String?
    var arguments: [SQLValue]
    var residual: Predicate?

    init(_ plan: QueryPlan) {
        predicate = plan.request.predicate
        containers = plan.request.containers ?? []
        scope = plan.request.scope
        attributes = plan.attributes
        whereClause = plan.compiled?.whereClause
        arguments = plan.compiled?.arguments ?? []
        residual = plan.compiled?.residual
    }

    var summary: String { "predicate \(predicate ?? "TRUEPREDICATE"), scope \(scope.rawValue)" }
}
