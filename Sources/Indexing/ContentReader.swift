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
    /// wait, as the `Indexer` reads them. `mimeDatabase`: the shared-mime-info database,
    /// when the caller has read it already (read here otherwise).
    public init(root: RawPath, coordinator: FileCoordinator? = nil, mimeDatabase: MimeDatabase? = nil, logger: Logger) throws {
        layout = ContainerLayout(root: root)
        let detector = try ContentTypeDetector(database: mimeDatabase ?? MimeDatabase())
        inspector = ItemInspector(detector: detector, coordinator: coordinator, logger: logger)
    }

    /// Full snapshots of the items that are still regular files; an item that is gone or
    /// no longer a file is left out (the watcher reports what happened to it), and so is
    /// one another process holds a claim on now (it stays pending for a later pass).
    ///
    /// Files are read in groups under one claim each (`ItemInspector.snapshotsInGroups`).
    public func read(_ items: [PendingContent]) -> [ItemSnapshot] {
        var files: [ItemInspector.File] = []
        // Once per container, not per item: checking the id and deriving the names cost
        // 0.43 s of CPU in reading 100,000 items (perf, a first sync).
        var namesByContainer: [String: ContainerNames?] = [:]
        for item in items {
            let known = namesByContainer[item.container]
            let names = known ?? (try? ContainerID(item.container)).map { ContainerNames($0, layout: layout) }
            if known == nil { namesByContainer[item.container] = .some(names) }
            guard let names else { continue }  // not a container id: nothing of it is indexed
            guard let status = try? FileStatus.read(item.relativePath, beneath: names.folder), status.signature.kind == .file else {
                continue
            }
            files.append((item.relativePath, names, status))
        }
        return inspector.snapshotsInGroups(files).compactMap { $0 }
    }
}
