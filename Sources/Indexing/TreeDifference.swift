import MetadataIndex
import RawPaths

/// What differs between two path-ordered listings of one tree, the disk's and the
/// index's, found by walking both side by side as a merge does: no map of either side is
/// built, so a reconciliation's memory does not grow with the tree.
struct TreeDifference {
    enum Change {
        /// On the disk, and new to the index or with another signature there.
        case changed(RawPath, FileStatus)
        /// In the index, gone from the disk; the topmost such path only (removing a folder
        /// removes everything below it).
        case removed(RawPath)
    }

    private let nextOnDisk: () throws -> (path: RawPath, status: FileStatus)?
    private let nextIndexed: () throws -> IndexedSignature?
    private var disk: (path: RawPath, status: FileStatus)??
    private var indexed: IndexedSignature??
    private var removals = TopmostRemovals()

    /// Both sources must yield their paths in ascending byte order (`RawPath <`).
    init(disk: @escaping () throws -> (path: RawPath, status: FileStatus)?, index: @escaping () throws -> IndexedSignature?) {
        nextOnDisk = disk
        nextIndexed = index
    }

    mutating func next() throws -> Change? {
        while true {
            if disk == nil { disk = .some(try nextOnDisk()) }
            if indexed == nil { indexed = .some(try nextIndexed()) }
            let onDisk = disk!, known = indexed!
            if let onDisk, known == nil || onDisk.path < known!.relativePath {
                disk = nil  // only on the disk
                return .changed(onDisk.path, onDisk.status)
            }
            guard let known else { return nil }  // both sides done
            indexed = nil
            if let onDisk, onDisk.path == known.relativePath {
                disk = nil
                if onDisk.status.signature != known.signature { return .changed(onDisk.path, onDisk.status) }
            } else if removals.admit(known.relativePath) {
                return .removed(known.relativePath)  // only in the index
            }
        }
    }
}

/// Of the paths removed in ascending order, admits only those not below one admitted
/// before. A folder's subtree is one contiguous run of that order, though not right after
/// the folder (`a b` falls between `a` and `a/x`): the folders whose run may still come are
/// kept on a stack, and dropped once the order has passed their run.
struct TopmostRemovals {
    private var folders: [RawPath] = []

    mutating func admit(_ path: RawPath) -> Bool {
        while let top = folders.last, !path.isSame(orBelow: top), RawPath.precedes(top.bytes + [0x2F], path.bytes) {
            folders.removeLast()
        }
        if let top = folders.last, path.isSame(orBelow: top) { return false }
        folders.append(path)
        return true
    }
}
