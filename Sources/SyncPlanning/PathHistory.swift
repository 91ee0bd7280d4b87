/// Every recorded version of one path, from every device's log: a small DAG whose
/// childless nodes (heads) are the candidates for the current version.
public struct PathHistory: Sendable, Equatable {
    public let path: String
    /// The record of a path with a single version, which most paths are: a daemon keeps
    /// the history of every path, and a table for one record costs about 400 bytes.
    /// Boxed, since a table of histories holds every history inline, with room to spare.
    private var lone: Lone?
    /// Every record once there are two or more (`lone` is nil then).
    private var table: [VersionID: VersionRecord] = [:]
    /// Versions that some other version of this path names as a parent.
    private var superseded: Set<VersionID> = []
    /// The records that no other record names as a parent, kept as records are added
    /// (empty for a lone record, which is the head): a file saved every few minutes has
    /// thousands of versions, and every pass that plans it asks for its winner (filtering
    /// every record each time made planning a 1,000-file pass over 80-version histories
    /// cost 0.15 s).
    private var headIDs: Set<VersionID> = []

    public init(path: String) {
        self.path = path
    }

    /// Adds a record; adding one twice changes nothing (logs are re-read after a restart).
    public mutating func add(_ record: VersionRecord) {
        precondition(record.path == path, "a record of \(record.path) added to the history of \(path)")
        guard self.record(record.id) == nil else { return }
        superseded.formUnion(record.parents)
        if let first = only {
            table = [first.id: first, record.id: record]
            lone = nil
            headIDs = [first.id]  // no record names it yet, unless this one does (below)
        } else if table.isEmpty {
            lone = .record(record)  // the head, without a set to say so
            return
        } else {
            table[record.id] = record
        }
        headIDs.subtract(record.parents)
        // A record read before its child is no head; one read after it never becomes one.
        if !superseded.contains(record.id) { headIDs.insert(record.id) }
    }

    private indirect enum Lone: Equatable, Sendable {
        case record(VersionRecord)
    }

    private var only: VersionRecord? {
        guard case .record(let record) = lone else { return nil }
        return record
    }

    /// The record of version `id`, if this path has it.
    public func record(_ id: VersionID) -> VersionRecord? {
        if let only { return only.id == id ? only : nil }
        return table[id]
    }

    /// Every record, in no particular order.
    public var records: [VersionRecord] {
        only.map { [$0] } ?? Array(table.values)
    }

    /// The versions no other version replaces, oldest id first. (A lone record is one:
    /// no record names itself as a parent.)
    public var heads: [VersionRecord] {
        if let only { return [only] }
        return headIDs.sorted().compactMap { table[$0] }
    }

    /// How many heads there are: 1 unless versions were made side by side (0 when empty).
    public var headCount: Int { only != nil ? 1 : headIDs.count }

    /// The heads other than `id` that hold the state version `id` holds: the same change,
    /// made on two devices at once (neither saw the other's first). A change based on `id`
    /// replaces them too: a twin left as a head would come back as soon as `id` is
    /// replaced, winning against a deletion or showing as a conflict against an edit.
    public func twins(of id: VersionID) -> [VersionID] {
        guard only == nil, let state = record(id).map(\.state) else { return [] }
        return heads.filter { $0.id != id && $0.state == state }.map(\.id)
    }

    /// The current version: the winner among the heads.
    public var winner: VersionRecord? {
        if let only { return only }
        return WinnerRule.winner(of: headIDs.lazy.compactMap { table[$0] })
    }

    /// Heads that lost to the winner and hold something else than it: unresolved
    /// conflict versions (NSFileVersion's). A losing deletion is not one (nothing to keep),
    /// nor is a head with the winner's very state (two devices made the same change).
    public var conflicts: [VersionRecord] {
        guard only == nil, let winner else { return [] }
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
