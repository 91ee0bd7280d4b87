import RawPaths

/// The root as the watcher and the sync engine name it, and as coordinated claims and
/// presenters name it (symbolic links resolved): paths below the one, named below the other.
struct CanonicalRoot: Sendable {
    let root: RawPath
    let canonicalRoot: RawPath

    func canonical(_ path: RawPath) -> [UInt8] {
        guard root != canonicalRoot, path.isSame(orBelow: root) else { return path.bytes }
        return path.rebased(from: root, to: canonicalRoot).bytes
    }
}
