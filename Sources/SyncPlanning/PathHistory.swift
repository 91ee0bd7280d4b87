/// Every recorded version of one path, from every device's log: a small DAG whose
/// childless nodes (heads) are the candidates for the current version.
public struct PathHistory: Sendable {
    public let path: String
    /// Every record, in the order they arrived. Most paths have one or two, and a daemon
    /// keeps the history of every path, so a history is one array until it grows long.
    /// With a table and two sets for every path of two records or more, the histories of
    /// 100,000 files (214,000 versions) took 91 MB of heap; with the array, 31 MB
    /// (heaptrack, a daemon's restart).
    private var stored: [VersionRecord] = []
    /// From `indexedFrom` records on: each record's place in `stored`, the versions some
    /// record names as a parent, and the records none names (the heads), kept as records
    /// arrive. A file saved every few minutes has thousands of versions, and every pass
    /// that plans it asks for its winner (filtering every record each time made planning a
    /// 1,000-file pass over 80-version histories cost 0.15 s). Empty below that: a scan of
    /// a few records is cheaper than the tables.
    private var positions: [VersionID: Int] = [:]
    private var superseded: Set<VersionID> = []
    private var headIDs: Set<VersionID> = []

    /// How many records a history holds before it keeps tables (`positions`).
    static let indexedFrom = 8

    public init(path: String) {
        self.path = path
    }

    private var isIndexed: Bool { stored.count >= Self.indexedFrom }

    /// Adds a record; adding one twice changes nothing (logs are re-read after a restart).
    public mutating func add(_ record: VersionRecord) {
        precondition(record.path == path, "a record of \(record.path) added to the history of \(path)")
        guard self.record(record.id) == nil else { return }
        stored.append(record)
        if stored.count == Self.indexedFrom {
            for (position, each) in stored.enumerated() { positions[each.id] = position }
            let named = Set(stored.lazy.flatMap(\.parents))
            superseded = named
            headIDs = Set(stored.lazy.map(\.id).filter { !named.contains($0) })
        } else if isIndexed {
            positions[record.id] = stored.count - 1
            superseded.formUnion(record.parents)
            headIDs.subtract(record.parents)
            // A record read before its child is no head; one read after it never becomes one.
            if !superseded.contains(record.id) { headIDs.insert(record.id) }
        }
    }

    /// The record of version `id`, if this path has it.
    public func record(_ id: VersionID) -> VersionRecord? {
        guard isIndexed else { return stored.first { $0.id == id } }
        return positions[id].map { stored[$0] }
    }

    /// Every record, in no particular order.
    public var records: [VersionRecord] { stored }

    /// The versions no other version replaces, oldest id first. (A lone record is one:
    /// no record names itself as a parent.)
    public var heads: [VersionRecord] {
        guard isIndexed else { return unindexedHeads.sorted { $0.id < $1.id } }
        return headIDs.sorted().compactMap { record($0) }
    }

    /// The heads of a short history, found by their definition.
    private var unindexedHeads: [VersionRecord] {
        if stored.count == 1 { return stored }
        return stored.filter { candidate in !stored.contains { $0.parents.contains(candidate.id) } }
    }

    /// How many heads there are: 1 unless versions were made side by side (0 when empty).
    public var headCount: Int { isIndexed ? headIDs.count : unindexedHeads.count }

    /// The heads other than `id` that hold the state version `id` holds: the same change,
    /// made on two devices at once (neither saw the other's first). A change based on `id`
    /// replaces them too: a twin left as a head would come back as soon as `id` is
    /// replaced, winning against a deletion or showing as a conflict against an edit.
    public func twins(of id: VersionID) -> [VersionID] {
        guard stored.count > 1, let state = record(id).map(\.state) else { return [] }
        return heads.filter { $0.id != id && $0.state == state }.map(\.id)
    }

    /// The current version: the winner among the heads.
    public var winner: VersionRecord? {
        guard isIndexed else { return WinnerRule.winner(of: unindexedHeads) }
        return WinnerRule.winner(of: headIDs.lazy.compactMap { record($0) })
    }

    /// Heads that lost to the winner and hold something else than it: unresolved
    /// conflict versions (NSFileVersion's). A losing deletion is not one (nothing to keep),
    /// nor is a head with the winner's very state (two devices made the same change).
    public var conflicts: [VersionRecord] {
        guard stored.count > 1, let winner else { return [] }
        return heads.filter { $0.id != winner.id && $0.state != nil && $0.state != winner.state }
    }

    /// Every version, newest first (by time, then id): what `ubq versions` lists.
    public var newestFirst: [VersionRecord] {
        records.sorted { ($0.time, $0.id) > ($1.time, $1.id) }
    }

    /// The nearest version both `a` and `b` descend from (themselves included), for a
    /// three-way merge. Nil when they share no ancestor at this path.
    public func commonAncestor(of a: VersionID, _ b: VersionID) -> VersionRecord? {
        let ancestorsOfA = ancestors(of: a)
        var queue = [b]
        var seen: Set<VersionID> = []
        while !queue.isEmpty {
            let next = queue.removeFirst()
            guard seen.insert(next).inserted, let record = record(next) else { continue }
            if ancestorsOfA.contains(next) { return record }
            queue.append(contentsOf: record.parents)
        }
        return nil
    }

    /// Whether a version holding `state` lies strictly between `base` (nil: the start of
    /// the history) and `head`: it descends from `base` and `head` descends from it. A
    /// version older than the base is not one: going back to it is a change (a revert).
    public func passes(_ state: EntryState?, from base: VersionID?, to head: VersionID) -> Bool {
        var stack = record(head)?.parents ?? []
        var seen: Set<VersionID> = []
        while let next = stack.popLast() {
            guard next != base, seen.insert(next).inserted, let record = record(next) else { continue }
            if record.state == state, base.map({ ancestors(of: next).contains($0) }) ?? true { return true }
            stack.append(contentsOf: record.parents)
        }
        return false
    }

    /// Whether version `id` descends from `ancestor` (or is it), as the parents its records
    /// name tell, even where the ancestor's own record is missing.
    public func descends(_ id: VersionID, from ancestor: VersionID) -> Bool {
        ancestors(of: id).contains(ancestor)
    }

    /// The versions that a later version of this path removed from the history
    /// (`VersionRecord.forgetsAncestors`): every version it descends from, itself excluded.
    public var forgotten: Set<VersionID> {
        var found: Set<VersionID> = []
        for record in stored where record.forgetsAncestors {
            for parent in record.parents where !found.contains(parent) { found.formUnion(ancestors(of: parent)) }
        }
        return found
    }

    /// `id` and every version its records name as an ancestor, known or not.
    private func ancestors(of id: VersionID) -> Set<VersionID> {
        var found: Set<VersionID> = []
        var stack = [id]
        while let next = stack.popLast() {
            guard found.insert(next).inserted, let record = record(next) else { continue }
            stack.append(contentsOf: record.parents)
        }
        return found
    }
}

extension PathHistory: Equatable {
    /// The same path and the same records, whatever order they arrived in.
    public static func == (a: PathHistory, b: PathHistory) -> Bool {
        a.path == b.path && a.stored.count == b.stored.count && a.stored.allSatisfy { b.record($0.id) == $0 }
    }
}
