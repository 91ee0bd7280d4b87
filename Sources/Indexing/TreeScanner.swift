import FileEvents
import IgnoreRules
import RawPaths

/// Reads a whole folder tree into a list of paths and statuses in the paths' byte order,
/// never following symlinks: for callers that take the tree whole (sync's local tree).
/// Reconciliation streams the same walk instead (`OrderedTreeWalk`).
public struct TreeScanner {
    let ignore: IgnoreRules
    let notice: NameFilter?
    /// Folders that could not be read, with the reason.
    public private(set) var failures: [IndexingError] = []
    /// Ignored files whose name `notice` accepted (see `OrderedTreeWalk`).
    public private(set) var noticed: [RawPath] = []

    public init(ignore: IgnoreRules, notice: NameFilter? = nil) {
        self.ignore = ignore
        self.notice = notice
    }

    /// The items below `folder` (absolute), named by their path below `prefix`, in the
    /// walk's order: the paths' byte order, so the caller need not sort them.
    public mutating func scan(folder: RawPath, prefix: RawPath) -> [(path: RawPath, status: FileStatus)] {
        var walk = OrderedTreeWalk(folder: folder, prefix: prefix, ignore: ignore, notice: notice)
        var found: [(path: RawPath, status: FileStatus)] = []
        while let item = walk.next() { found.append(item) }
        failures += walk.failures
        noticed += walk.noticed
        return found
    }
}
