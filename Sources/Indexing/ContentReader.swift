import ContentTypes
import Coordination
import Logging
import MetadataIndex
import RawPaths
import UbiquitySettings

/// Reads the content of items the index recorded without it (`contentPending`): sniffed
/// type, text, diary entries. It has its own content-type detector (libmagic handles are
/// not shared between threads), so it can run beside the `Indexer` on another thread;
/// its snapshots go back through `Indexer.fillContent`, which keeps only those still
/// current. Not thread-safe itself: one reader per thread.
public final class ContentReader {
    private let layout: ContainerLayout
    private let inspector: ItemInspector

    /// With a `coordinator`, files are read under a coordinated read claim that does not
    /// wait, as the `Indexer` reads them.
    public init(root: RawPath, coordinator: FileCoordinator? = nil, logger: Logger) throws {
        layout = ContainerLayout(root: root)
        inspector = ItemInspector(detector: try ContentTypeDetector(), coordinator: coordinator, logger: logger)
    }

    /// Full snapshots of the items that are still regular files; an item that is gone or
    /// no longer a file is left out (the watcher reports what happened to it), and so is
    /// one another process holds a claim on now (it stays pending for a later pass).
    ///
    /// Files are read in groups under one claim each (`ItemInspector.snapshots`): at most
    /// `filesPerClaim` files and `bytesPerClaim` bytes, so that an app saving one of them
    /// waits a few milliseconds at most.
    public func read(_ items: [PendingContent]) -> [ItemSnapshot] {
        var snapshots: [ItemSnapshot] = []
        var group: [(relativePath: RawPath, names: ContainerNames, status: FileStatus)] = []
        var bytes: Int64 = 0
        for item in items {
            guard let container = try? ContainerID(item.container) else { continue }
            let names = ContainerNames(container, layout: layout)
            guard let status = try? FileStatus.read(names.folder.appending(item.relativePath)), status.signature.kind == .file else {
                continue
            }
            if !group.isEmpty && (group.count == Self.filesPerClaim || bytes + status.signature.size > Self.bytesPerClaim) {
                snapshots += inspector.snapshots(group)
                group = []
                bytes = 0
            }
            group.append((item.relativePath, names, status))
            bytes += status.signature.size
        }
        return snapshots + inspector.snapshots(group)
    }

    static let filesPerClaim = 64
    static let bytesPerClaim: Int64 = 1 << 20
}
