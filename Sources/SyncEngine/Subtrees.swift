import RawPaths

/// Container paths as heads of subtrees, as a scoped pass names what changed: `a/b`
/// stands for itself and everything below it. A path's ancestors are looked up in a set,
/// so thousands of roots (a burst of changes) cost no more than one per path.
struct Subtrees {
    private let roots: Set<String>

    init(_ roots: some Sequence<String>) { self.roots = Set(roots) }

    /// Whether `path` is one of the roots or below one.
    func contains(_ path: String) -> Bool {
        guard !roots.isEmpty else { return false }
        return roots.contains(path) || hasAncestor(path)
    }

    /// The roots that are below no other: each subtree once.
    var topmost: [String] { roots.filter { !hasAncestor($0) }.sorted() }

    private func hasAncestor(_ path: String) -> Bool {
        var end = path.endIndex
        while let slash = path[..<end].lastSlash {
            if roots.contains(String(path[..<slash])) { return true }
            end = slash
        }
        return false
    }
}
