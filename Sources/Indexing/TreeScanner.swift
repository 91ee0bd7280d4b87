import FileEvents
import IgnoreRules
import RawPaths

/// Reads a whole folder tree into a map from path to status, never following symlinks:
/// for callers that look items up by path (sync's local tree). Reconciliation streams the
/// same walk instead (`OrderedTreeWalk`).
public struct TreeScanner {
    let ignore: IgnoreRules
    /// Folders that could not be read, with the reason.
    public private(set) var failures: [IndexingError] = []

    public init(ignore: IgnoreRules) {
        self.ignore = ignore
    }

    /// The items below `folder` (absolute), keyed by their path relative to `base` + `prefix`.
    public mutating func scan(folder: RawPath, prefix: RawPath) -> [RawPath: FileStatus] {
        var walk = OrderedTreeWalk(folder: folder, prefix: prefix, ignore: ignore)
        var found: [RawPath: FileStatus] = [:]
        while let (path, status) = walk.next() { found[path] = status }
        failures += walk.failures
        return found
    }
}
