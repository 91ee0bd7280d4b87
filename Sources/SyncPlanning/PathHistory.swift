/// Every recorded version of one path, from every device's log: a small DAG whose
/// childless nodes (heads) are the candidates for the current version.
public struct PathHistory: Sendable, Equatable {
    public let path: String
    public private(set) var records: [VersionID: VersionRecord] = [:]
    /// Versions that some other version of this path names as a parent.
    private var superseded: Set<VersionID> = []

    public init(path: String) {
        self.path = path
    }

    /// Adds a record; adding one twice changes nothing (logs are re-read after a restart).
    public mutating func add(_ record: VersionRecord) {
        precondition(record.path == path, "a record of \(record.path) added to the history of \(path)")
        guard records[record.id] == nil else { return }
        records[record.id] = record
        superseded.formUnion(record.parents)
    }

    /// The versions no other version replaces, oldest id first.
    public var heads: [VersionRecord] {
        records.values.filter { !superseded.contains($0.id) }.sorted { $0.id < $1.id }
    }

    /// The current version: the winner among the heads.
    public var winner: VersionRecord? {
        WinnerRule.winner(of: records.values.lazy.filter { !superseded.contains($0.id) })
    }

    /// Heads that lost to the winner and hold something else than it: unresolved
    /// conflict versions (NSFileVersion's). A losing deletion is not one (nothing to keep),
    /// nor is a head with the winner's very state (two devices made the same change).
    public var conflicts: [VersionRecord] {
        guard let winner else { return [] }
        return heads.filter { $0.id != winner.id && $0.state != nil && $0.state != winner.state }
    }

    /// Every version, newest first (by time, then id): what `ubq versions` lists.
    public var newestFirst: [VersionRecord] {
        records.values.sorted { ($0.time, $0.id) > ($1.time, $1.id) }
    }

    /// The nearest version both `a` and `b` descend from (themselves included), for a
    /// three-way merge. Nil when they share no ancestor at this path.
    public func commonAncestor(of a: VersionID, _ b: VersionID) -> VersionRecord? {
        let ancestorsOfA = ancestors(of: a)
        var queue = [b]
        var seen: Set<VersionID> = []
        while !queue.isEmpty {
            let next = queue.removeFirst()
            guard seen.insert(next).inserted, let record = records[next] else { continue }
            if ancestorsOfA.contains(next) { return record }
            queue.append(contentsOf: record.parents)
        }
        return nil
    }

    private func ancestors(of id: VersionID) -> Set<VersionID> {
        var found: Set<VersionID> = []
        var stack = [id]
        while let next = stack.popLast() {
            guard found.insert(next).inserted, let record = records[next] else { continue }
            stack.append(contentsOf: record.parents)
        }
        return found
    }
}
