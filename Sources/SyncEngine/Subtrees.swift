/// Container paths as heads of subtrees, as a scoped pass names what changed: `a/b`
/// stands for itself and everything below it. Each path's ancestors are looked up in a
/// set, so thousands of roots (a burst of changes) cost no more than one per path.
enum Subtrees {
    /// The paths of `all` that are one of `roots` or below one.
    static func paths(in all: some Sequence<String>, under roots: [String]) -> [String] {
        guard !roots.isEmpty else { return [] }
        let rootSet = Set(roots)
        return all.filter { rootSet.contains($0) || hasAncestor($0, in: rootSet) }
    }

    /// `roots` without those below another of them: each subtree once.
    static func topmost(_ roots: [String]) -> [String] {
        let rootSet = Set(roots)
        return rootSet.filter { !hasAncestor($0, in: rootSet) }.sorted()
    }

    private static func hasAncestor(_ path: String, in set: Set<String>) -> Bool {
        var end = path.endIndex
        while let slash = path[..<end].lastIndex(of: "/") {
            if set.contains(String(path[..<slash])) { return true }
            end = slash
        }
        return false
    }
}
