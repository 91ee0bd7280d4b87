import RawPaths

/// The local items sync leaves out until the user changes them, each with why: a name it
/// cannot carry, a FIFO where a synced file was, a path too long, a folder it cannot read.
/// A pass tells them once, but most passes look only at what just changed: kept here, they
/// stay in `ubq status` while the item stays as it is, not only after a pass over
/// everything. Paths are container-relative.
struct UnsyncedItems {
    private(set) var reasons: [RawPath: String] = [:]

    /// What a scan of `roots` found (nil: of everything) replaces what was known there.
    mutating func replace(within roots: [RawPath]?, with found: [RawPath: String]) {
        guard let roots else {
            reasons = found
            return
        }
        if !reasons.isEmpty {
            reasons = reasons.filter { path, _ in !roots.contains { path.isSame(orBelow: $0) } }
        }
        reasons.merge(found) { _, new in new }
    }

    /// The paths kept at or below one of `roots`.
    func paths(within roots: [RawPath]) -> [RawPath] {
        guard !reasons.isEmpty else { return [] }
        let subtrees = Subtrees(roots.compactMap { SyncPath.key($0) })
        return reasons.keys.filter { SyncPath.key($0).map(subtrees.contains) ?? false }
    }

    var count: Int { reasons.count }

    /// The reasons, in their paths' order.
    var messages: [String] {
        reasons.sorted { $0.key < $1.key }.map(\.value)
    }
}
