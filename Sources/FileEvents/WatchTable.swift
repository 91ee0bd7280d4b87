import RawPaths

/// The watcher's own map from watch descriptors to folder paths (relative to the root).
///
/// libinotifytools keeps a map too, but it keeps a renamed folder's old path and a deleted
/// folder's stale entry (LINUX-NOTES.md), so the watcher keeps this one as the truth.
public struct WatchTable: Sendable {
    private var pathByWatch: [Int32: RawPath] = [:]

    public init() {}

    public var count: Int { pathByWatch.count }

    public func path(of watch: Int32) -> RawPath? { pathByWatch[watch] }

    public mutating func insert(watch: Int32, path: RawPath) {
        pathByWatch[watch] = path
    }

    @discardableResult
    public mutating func remove(watch: Int32) -> RawPath? {
        pathByWatch.removeValue(forKey: watch)
    }

    /// Empties the table; returns every watch it held, with its folder.
    public mutating func removeAll() -> [Int32: RawPath] {
        defer { pathByWatch = [:] }
        return pathByWatch
    }

    /// The watches on `folder` and every folder below it.
    public func watches(under folder: RawPath) -> [Int32] {
        pathByWatch.filter { $0.value.isSame(orBelow: folder) }.map(\.key)
    }

    /// Re-points every watch on `from` or below it to the same place below `to`.
    public mutating func move(from: RawPath, to: RawPath) {
        for (watch, path) in pathByWatch where path.isSame(orBelow: from) {
            pathByWatch[watch] = path.rebased(from: from, to: to)
        }
    }
}
