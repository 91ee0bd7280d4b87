/// The view of a first sync, written while the pass goes on: each batch's new base rows,
/// once durable, become a view update of their paths (`ChangeBatch`), handed to the view's
/// writer (`ViewWriter`), or written at once by a pass without one.
///
/// A whole pass otherwise writes its view at the end, by checking every entry
/// (`MirrorView.repair`). On a first sync that meant 100,000 links, one core's work for
/// 1.5-2 s after the last batch, while the batches before had left a core partly idle
/// as they waited for the disk (perf, 100,000 files on a new ext4). Written as it goes, the
/// first sync was faster in 8 of 9 interleaved pairs (scratch initloop.sh, each run on a
/// new ext4): 8.64-9.69 s, median 9.22 s, against 9.15-9.97 s, median 9.56 s. The daemon's
/// CPU fell by 0.2-1.6 s (median 0.75 s): the final check also read the whole base again.
///
/// Only where nothing needs repairing: the pass looks at the whole container, its base is
/// empty, and the view holds nothing yet. The entries the stream writes are then all there
/// is to write, as every base row the pass adds comes from a batch. Paths whose last
/// change the stream did not write (see `takeWritten()`) are left to the pass's own
/// update at its end.
final class ViewStream {
    private let view: String
    private let layout: MirrorLayout
    private let linker: ViewLinker
    private let method: ViewLinker.Method
    /// The view's writer; nil: the pass writes each update itself.
    private let writer: ViewWriter?
    private let containerID: String
    /// The problems of updates the pass wrote itself (a writer reports its own).
    private(set) var problems: [String] = []
    /// The paths written since the last `takeWritten()`.
    private var written: Set<String> = []
    /// The view's folders the stream's updates made or checked: each update sets new paths
    /// (a pass sets each path once), so below a folder the stream made there is nothing to
    /// look at first. A new set for each update had every file of a folder made by an
    /// earlier batch looked at (`lstat`): 0.29 s of the view's writer in a first sync of
    /// 100,000 files.
    private let plainFolders = PlainFolders()

    private init(view: String, of container: ContainerSync, linker: ViewLinker, method: ViewLinker.Method, writer: ViewWriter?) {
        self.view = view
        layout = container.layout
        self.linker = linker
        self.method = method
        self.writer = writer
        containerID = container.id
    }

    /// A stream for the view `folder` of `container`'s mirror, if a pass with the base
    /// `base` (of the whole container) can write it as it goes; nil otherwise, and when
    /// views are off. (Where the way to link cannot be found out now, the pass's own update
    /// at its end tries again and reports why.)
    static func start(
        _ folder: String, of container: ContainerSync, base: [String: BaseRow], linker: ViewLinker, writer: ViewWriter?,
        problems: inout [String]
    ) -> ViewStream? {
        guard base.isEmpty, MirrorView.names(in: .init(folder)).isEmpty, ViewUpdate.mirrorGone(container.layout) == nil,
            let method = try? linker.method(probingIn: folder, problems: &problems)
        else { return nil }
        return ViewStream(view: folder, of: container, linker: linker, method: method, writer: writer)
    }

    /// Writes the view entries of `commits`, which just became durable.
    func write(_ commits: [BaseCommit]) {
        var base: [String: BaseRow] = [:]
        base.reserveCapacity(commits.count)
        for commit in commits { base[commit.path] = commit.row }  // the last change of a path counts
        let paths = Set(base.keys)
        let update = ViewUpdate(
            view: view, layout: layout, linker: linker, method: method, paths: paths, base: base, plainFolders: plainFolders)
        if let writer {
            writer.submit(update, container: containerID)
        } else {
            problems += update.write()
        }
        written.formUnion(paths)
    }

    /// The paths written since the last call: the pass need not update them again, unless
    /// a later action touches them anew.
    func takeWritten() -> Set<String> {
        defer { written = [] }
        return written
    }
}
