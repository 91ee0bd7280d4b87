import FileEvents
import IgnoreRules
import RawPaths

/// Reads a whole folder tree into a map from path to status, never following symlinks:
/// for callers that look items up by path (sync's local tree). Reconciliation streams the
/// same walk instead (`OrderedTreeWalk`).
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

    /// The items below `folder` (absolute), keyed by their path relative to `base` + `prefix`.
    public mutating func scan(folder: RawPath, prefix: RawPath) -> [RawPath: FileStatus] {
        var walk = OrderedTreeWalk(folder: folder, prefix: prefix, ignore: ignore, notice: notice)
        var found: [RawPath: FileStatus] = [:]
        while let (path, status) = walk.next() { found[path] = status }
        failures += walk.failures
        noticed += walk.noticed
        return found
    }
}
