import RawPaths

/// What a watcher saw, already translated from kernel masks into what it means for the tree.
///
/// Paths are relative to the watched root and keep the raw bytes of every name, so names
/// that are not valid UTF-8 keep their identity. A watcher is only a hint (DESIGN.md,
/// decision 1): every consumer re-reads the disk at the path before it acts.
public enum WatchEvent: Sendable, Hashable {
    /// A file (or symlink) at `path` was created, written, renamed into place or had its
    /// attributes changed. `stillOpen` is true while a writer may still be writing
    /// (`IN_CREATE`/`IN_MODIFY` without `IN_CLOSE_WRITE` yet).
    case touched(RawPath, stillOpen: Bool)
    /// Whatever was at `path` is gone (deleted or moved away).
    case removed(RawPath)
    /// A folder appeared (created, or moved in from outside the tree) or must be re-read
    /// as a whole (queue overflow, a failed watch): reconcile the subtree with the disk.
    case rescan(RawPath)
    /// A folder inside the tree was renamed or moved to another place inside the tree.
    case moved(from: RawPath, to: RawPath)
    /// A sync cookie file came through the watcher: every change made before the cookie
    /// was created has now been seen.
    case cookie(String)
}

extension WatchEvent {
    /// The prefix every sync cookie file name starts with. The ignore rules hide it (all
    /// daemon staging files start with `.ubq-`).
    public static let cookiePrefix = ".ubq-cookie-"
}
