import ContentTypes
import FileEvents
import IgnoreRules
import Logging
import MetadataIndex
import SystemPackage
import UbiquitySettings

/// Keeps the metadata index equal to the disk: applies settled watcher changes and
/// reconciles subtrees (at start-up, after a queue overflow, for new folders).
///
/// The index is compared by signature (device, inode, size, mtime, ctime), so an
/// unchanged file is never read again. Not thread-safe: one indexer task owns it.
public final class Indexer {
    public let layout: ContainerLayout
    let index: MetadataIndex
    private let inspector: ItemInspector
    private let ignores: IgnoreCatalog
    private let logger: Logger
    /// Upserts are written in transactions of this many items.
    private let batchSize = 2000

    public init(root: FilePath, index: MetadataIndex, extraIgnorePatterns: [String], logger: Logger) throws {
        layout = ContainerLayout(root: root)
        self.index = index
        inspector = ItemInspector(detector: try ContentTypeDetector())
        ignores = IgnoreCatalog(layout: layout, extraPatterns: extraIgnorePatterns, logger: logger)
        self.logger = logger
    }

    /// Makes the index equal to the disk for every container folder under the root (and
    /// forgets containers whose folder is gone).
    public func reconcileEverything() throws {
        let present = ContainerDiscovery.containers(in: layout.root)
        for (container, _) in try index.counts() where !present.contains(where: { $0.identifier == container }) {
            try index.apply([.remove(container: container, relativePath: FilePath())])
        }
        for container in present { try reconcile(container, FilePath()) }
    }

    /// Applies settled changes from the watcher, reading the disk at each path.
    public func apply(_ changes: [SettledChange]) throws {
        var pending: [IndexChange] = []
        for change in changes {
            switch change {
            case .look(let path): try look(path, into: &pending)
            case .rescan(let path):
                try flush(&pending)
                try rescan(path)
            case .moved(let from, let to):
                try flush(&pending)
                try moved(from: from, to: to)
            }
        }
        try flush(&pending)
    }

    private func flush(_ pending: inout [IndexChange]) throws {
        try index.apply(pending)
        pending.removeAll()
    }

    private func look(_ rootRelative: FilePath, into pending: inout [IndexChange]) throws {
        guard let location = layout.locate(rootRelative) else { return }
        if location.relativePath.isEmpty { return try rescan(rootRelative) }
        if location.relativePath == FilePath(IgnoreCatalog.fileName) { ignores.invalidate(location.container) }
        let container = location.container.identifier
        let absolute = layout.absolute(location)
        guard let status = try FileStatus.read(absolute), !isIgnored(location, status) else {
            pending.append(.remove(container: container, relativePath: location.relativePath))
            return
        }
        let known = try index.signature(container: container, relativePath: location.relativePath)
        if status.signature.kind == .folder && known?.kind != .folder {
            try flush(&pending)
            return try reconcile(location.container, location.relativePath)
        }
        guard known != status.signature else { return }
        pending.append(.upsert(snapshot(location, status)))
    }

    private func rescan(_ rootRelative: FilePath) throws {
        guard let location = layout.locate(rootRelative) else {
            if rootRelative.isEmpty { try reconcileEverything() }
            return
        }
        if location.relativePath.isEmpty { ignores.invalidate(location.container) }
        try reconcile(location.container, location.relativePath)
    }

    private func moved(from: FilePath, to: FilePath) throws {
        guard let source = layout.locate(from), let target = layout.locate(to),
            source.container == target.container, !source.relativePath.isEmpty, !target.relativePath.isEmpty
        else {
            try rescan(from)
            return try rescan(to)
        }
        try index.apply([.move(container: source.container.identifier, from: source.relativePath, to: target.relativePath, absoluteTo: layout.absolute(target))])
        try reconcile(target.container, target.relativePath)
    }

    /// Makes the index equal to the disk for `relativePath` and everything below it.
    public func reconcile(_ container: ContainerID, _ relativePath: FilePath) throws {
        let rules = ignores.rules(for: container)
        var scanner = TreeScanner(ignore: rules)
        let location = ContainerLayout.Location(container: container, relativePath: relativePath)
        var disk = scanner.scan(folder: layout.absolute(location), prefix: relativePath)
        for failure in scanner.failures { logger.warning("cannot read folder: \(failure)") }
        if !relativePath.isEmpty, let status = try FileStatus.read(layout.absolute(location)), !isIgnored(location, status) {
            disk[relativePath] = status
        }
        let indexed = try index.signatures(container: container.identifier, under: relativePath)
        try index.apply(Self.removals(indexed: indexed, disk: disk, container: container.identifier))
        var batch: [IndexChange] = []
        for (path, status) in disk where indexed[path] != status.signature {
            batch.append(.upsert(snapshot(.init(container: container, relativePath: path), status)))
            if batch.count >= batchSize { try flush(&batch) }
        }
        try flush(&batch)
    }

    /// The topmost indexed paths that are gone from the disk (removing a folder removes
    /// everything below it).
    static func removals(indexed: [FilePath: FileSignature], disk: [FilePath: FileStatus], container: String) -> [IndexChange] {
        let gone = indexed.keys.filter { disk[$0] == nil }.sorted { $0.components.count < $1.components.count }
        var removed: [FilePath] = []
        for path in gone where !removed.contains(where: { path.starts(with: $0) }) { removed.append(path) }
        return removed.map { .remove(container: container, relativePath: $0) }
    }

    private func isIgnored(_ location: ContainerLayout.Location, _ status: FileStatus) -> Bool {
        ignores.rules(for: location.container).isIgnored(relativePath: location.relativePath.readable, isDirectory: status.signature.kind == .folder)
    }

    private func snapshot(_ location: ContainerLayout.Location, _ status: FileStatus) -> ItemSnapshot {
        inspector.snapshot(
            container: location.container.identifier, displayName: ContainerLayout.displayName(of: location.container),
            relativePath: location.relativePath, absolutePath: layout.absolute(location), status: status)
    }
}
