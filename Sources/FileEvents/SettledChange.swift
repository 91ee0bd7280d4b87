import RawPaths

/// A change that has settled and can be acted on: look at the disk there and make the
/// index (or the mirror) match it.
public enum SettledChange: Sendable, Hashable {
    /// Look at the item at this path: it may now exist, differ or be gone.
    case look(RawPath)
    /// Reconcile the whole subtree below this path with the disk.
    case rescan(RawPath)
    /// A folder moved inside the tree; the items below it moved with it.
    case moved(from: RawPath, to: RawPath)
}
