import APIModel
import Foundation

/// One update of a live query: NSMetadataQuery's added, changed or removed item.
public struct LiveUpdate: Sendable, Equatable {
    public var kind: LiveUpdateKind
    public var item: ResultItem

    public init(kind: LiveUpdateKind, item: ResultItem) {
        self.kind = kind
        self.item = item
    }
}

/// What a live query remembers between two batches of index changes: which rows match.
/// Turns each batch into NSMetadataQuery's updates by re-evaluating the rows the batch
/// touched, and nothing else.
public struct LiveQueryState: Sendable {
    public let plan: QueryPlan
    private var matching: Set<Int64>

    public init(plan: QueryPlan, gathered: [TrackedItem]) {
        self.plan = plan
        matching = Set(gathered.map(\.id))
    }

    public var matchCount: Int { matching.count }

    /// The updates `changes` mean for this query, reading the touched rows from `index`.
    public mutating func updates(for changes: AppliedChanges, in index: MetadataIndex) throws -> [LiveUpdate] {
        updates(removed: changes.removed, reevaluated: try index.reevaluate(plan, ids: changes.touched))
    }

    /// Removals come first: a row removed and touched in one batch (a move) left its old
    /// path and may match at its new one. A touched row that matched and no longer does is
    /// removed with its current attributes, which show why it left.
    mutating func updates(removed: [Int64: ResultItem], reevaluated: [Int64: Reevaluation]) -> [LiveUpdate] {
        var updates: [LiveUpdate] = []
        for (id, item) in removed.sorted(by: { Self.pathOrder($0.value, $1.value) }) where matching.remove(id) != nil {
            updates.append(LiveUpdate(kind: .removed, item: projected(item)))
        }
        for (id, now) in reevaluated.sorted(by: { Self.pathOrder($0.value.item, $1.value.item) }) {
            let matched = matching.contains(id)
            if now.matches {
                matching.insert(id)
                updates.append(LiveUpdate(kind: matched ? .changed : .added, item: now.item))
            } else if matched {
                matching.remove(id)
                updates.append(LiveUpdate(kind: .removed, item: now.item))
            }
        }
        return updates
    }

    /// A removed row carries every attribute; the query's client asked for some.
    private func projected(_ item: ResultItem) -> ResultItem {
        var chosen: [String: AttributeValue] = [:]
        for name in plan.attributes { chosen[name] = item.attributes[name] ?? .null }
        return ResultItem(attributes: chosen, rawPath: item.rawPath)
    }

    private static func pathOrder(_ a: ResultItem, _ b: ResultItem) -> Bool {
        a.rawPath.lexicographicallyPrecedes(b.rawPath)
    }
}
