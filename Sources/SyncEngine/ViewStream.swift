import Glibc

/// The view of a first sync, written while the pass goes on: each batch's new base rows,
/// once durable, become a view update of their paths (`ChangeBatch`), handed to the view's
/// writer (`ViewWriter`), or written at once by a pass without one.
///
/// A whole pass otherwise writes its view at the end, by checking every entry
/// (`MirrorView.repair`). On a first sync that meant 100,000 links, one core's work for
/// 1.5-2 s after the last batch, while the batches before had left a core partly idle
/// as they waited for the disk (perf, 100,000 files on a new ext4). Written as it goes,
/// the first sync took 8.64-9.01 s instead of 9.15-9.37 s (scratch initloop.sh: runs
/// interleaved, each on a new ext4), and the daemon's CPU fell from 14.1-14.5 s to
/// 13.1-13.6 s, as the final check read the whole base again.
///
/// Only where nothing needs repairing: the pass looks at the whole container, its base is
/// empty, and the view holds nothing yet. The entries the stream writes are then all there
/// is to write, as every base row the pass adds comes from a batch. Paths whose last
/// change the stream did not write (see `takeWritten()`) are left to the pass's own
/// update at its end.
final class ViewStream {
    private let update: (_ paths: Set<String>, _ base: [String: BaseRow]) -> [String]
    /// The problems of updates written on the pass's thread (a writer reports its own).
    private(set) var problems: [String] = []
    /// The paths written since the last `takeWritten()`.
    private var written: Set<String> = []

    private init(update: @escaping (_ paths: Set<String>, _ base: [String: BaseRow]) -> [String]) {
        self.update = update
    }

    /// A stream for the view `folder` of `container`'s mirror, if a pass with the base
    /// `base` (of the whole container) can write it as it goes; nil otherwise, and when
    /// views are off.
    static func start(
        _ folder: String, of container: ContainerSync, base: [String: BaseRow], linker: ViewLinker, writer: ViewWriter?,
        problems: inout [String]
    ) -> ViewStream? {
        guard base.isEmpty, MirrorView.names(in: .init(folder)).isEmpty, ViewUpdate.mirrorGone(container.layout) == nil,
            let method = try? linker.method(probingIn: folder, problems: &problems)
        else { return nil }
        let layout = container.layout
        return ViewStream { paths, base in
            let update = ViewUpdate(view: folder, layout: layout, linker: linker, method: method, paths: paths, base: base)
            guard let writer else { return update.write() }
            writer.submit(update, container: container.id)
            return []
        }
    }

    /// Writes the view entries of `commits`, which just became durable.
    func write(_ commits: [BaseCommit]) {
        var base: [String: BaseRow] = [:]
        base.reserveCapacity(commits.count)
        for commit in commits { base[commit.path] = commit.row }  // the last change of a path counts
        let paths = Set(base.keys)
        problems += update(paths, base)
        written.formUnion(paths)
    }

    /// The paths written since the last call: the pass need not update them again, unless
    /// a later action touches them anew.
    func takeWritten() -> Set<String> {
        defer { written = [] }
        return written
    }
}
