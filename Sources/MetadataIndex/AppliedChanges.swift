import APIModel

/// Which rows a batch of index changes touched, for live queries to re-evaluate only
/// those (DESIGN.md, decision 7: no full re-query per change).
///
/// An item's identity for a live query is its path: a row that moves (a folder rename
/// carries the rows below it) is recorded as removed at its old path and touched at its
/// new one, so a watcher keyed by path never holds a stale one.
public struct AppliedChanges: Sendable, Equatable {
    /// Rows inserted, updated or moved, by row id; read them again for their new state.
    public private(set) var touched: Set<Int64> = []
    /// Rows deleted or moved away, with every attribute they had before (the first state
    /// this batch saw, which is what a watcher last knew).
    public private(set) var removed: [Int64: ResultItem] = [:]

    public init() {}

    public var isEmpty: Bool { touched.isEmpty && removed.isEmpty }

    mutating func recordTouch(_ id: Int64) {
        touched.insert(id)
    }

    /// A touch followed by a removal leaves only the removal; a removal followed by a
    /// touch (a move, or SQLite reusing the id) keeps both, in that order.
    mutating func recordRemoval(_ id: Int64, before item: ResultItem) {
        touched.remove(id)
        if removed[id] == nil { removed[id] = item }
    }

    /// Appends what happened after `self`.
    public mutating func append(_ later: AppliedChanges) {
        for (id, item) in later.removed { recordRemoval(id, before: item) }
        touched.formUnion(later.touched)
    }
}
