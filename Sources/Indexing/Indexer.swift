import ContentTypes
import Coordination
import FileEvents
import IgnoreRules
import Logging
import MetadataIndex
import RawPaths
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
    /// Makes rows for new containers on a second thread; made on first use (it loads
    /// libmagic again).
    private var rowMaker: NewRowMaker?
    private let mimeDatabase: MimeDatabase
    private let ignores: IgnoreCatalog
    private let logger: Logger
    /// Upserts are written in transactions of this many items.
    private let batchSize = 2000
    /// The index's signatures are read this many at a time.
    private let pageSize = 4096
    /// What reconciliations did since the last `takeStatistics()`.
    private var statistics = ReconcileStatistics()
    /// Record which rows each write touches, for live queries (`takeAppliedChanges()`).
    public var journalsChanges = false
    private var applied = AppliedChanges()
    private var journal = IndexerJournal()
    /// Other names of hard-linked files that changed (`takeOtherNamesChanged()`).
    private var otherNamesChanged: [RawPath] = []

    /// Record what each applied change did to its item (`takeOutcomes()`).
    public var recordsOutcomes: Bool {
        get { journal.recordsOutcomes }
        set { journal.recordsOutcomes = newValue }
    }

    /// With a `coordinator`, file content is read under a coordinated read claim that does
    /// not wait: an item another process is writing is left as it was in the index and
    /// listed by `takeDeferred()`, to look at again later.
    ///
    /// `mimeDatabase`: the shared-mime-info database, when the caller has read it already
    /// (read here otherwise).
    public init(
        root: RawPath, index: MetadataIndex, extraIgnorePatterns: [String], coordinator: FileCoordinator? = nil,
        mimeDatabase: MimeDatabase? = nil, logger: Logger
    ) throws {
        layout = ContainerLayout(root: root)
        self.index = index
        let detector = try ContentTypeDetector(database: mimeDatabase ?? MimeDatabase())
        self.mimeDatabase = detector.database
        inspector = ItemInspector(detector: detector, coordinator: coordinator, logger: logger)
        ignores = IgnoreCatalog(layout: layout, extraPatterns: extraIgnorePatterns, logger: logger)
        self.logger = logger
    }

    /// Makes the index equal to the disk for every container folder under the root (and
    /// forgets containers whose folder is gone). Without `readingContent`, files are
    /// recorded from their status and name alone and their content is left pending
    /// (`ContentReader` reads it later): the start-up scan does so to answer queries soon.
    ///
    /// `beforeReading` is called with each folder's absolute path before the folder is read:
    /// the start-up scan waits there for the watcher to watch it.
    public func reconcileEverything(readingContent: Bool = true, beforeReading: FolderGate? = nil) throws {
        let present = ContainerDiscovery.containers(in: layout.root)
        for (container, _) in try index.counts() where !present.contains(where: { $0.identifier == container }) {
            try write([.remove(container: container, relativePath: RawPath())])
        }
        for container in present { try reconcile(container, RawPath(), readingContent: readingContent, beforeReading: beforeReading) }
    }

    /// Records content read by a `ContentReader` for items still pending (see
    /// `IndexChange.fillContent`).
    public func fillContent(_ snapshots: [ItemSnapshot]) throws {
        try write(snapshots.map(IndexChange.fillContent))
    }

    /// Uses `patterns` as the configuration's extra ignore patterns from now on and
    /// reconciles every container, so that newly ignored items leave the index and items no
    /// longer ignored enter it.
    public func replaceExtraIgnorePatterns(_ patterns: [String]) throws {
        try ignores.replaceExtraPatterns(patterns)
        try reconcileEverything()
    }

    /// Applies settled changes from the watcher, reading the disk at each path.
    /// Consecutive looks are handled as one batch: one read for their signatures, one
    /// transaction for their upserts.
    ///
    /// A rescanned or moved path is looked at again afterwards, for its folder's sake (a
    /// look takes in the parent): a folder made, moved in or moved away changes its
    /// folder's modification time (and size, on tmpfs), and inotify names only the entry.
    /// The paths themselves are up to date by then: a status read each, and one for each
    /// folder.
    public func apply(_ changes: [SettledChange]) throws {
        var looks: [RawPath] = []
        for change in changes {
            switch change {
            case .look(let path): looks.append(path)
            case .rescan(let path):
                try look(looks)
                looks = [path]
                try rescan(path)
            case .moved(let from, let to):
                try look(looks)
                looks = [from, to]
                try moved(from: from, to: to)
            }
        }
        try look(looks)
    }

    /// Looks at each path and at its parent folder: adding, removing or renaming an entry
    /// changes the folder's own size and modification time, and inotify reports that only
    /// as an event on the entry. Files whose content must be read are read together, in
    /// groups under one claim (`ItemInspector.snapshotsInGroups`): a burst of saves costs
    /// one claim per group, not one per file.
    ///
    /// A file with several names (hard links) changes under all of them, and inotify names
    /// only the one written through: with `followingLinks`, the index's other names of each
    /// such file are looked at too.
    private func look(_ rootRelativePaths: [RawPath], followingLinks: Bool = true) throws {
        guard !rootRelativePaths.isEmpty else { return }
        var seen = Set<RawPath>()
        let withParents = rootRelativePaths.flatMap { [$0, $0.removingLastComponent()] }.filter { seen.insert($0).inserted }
        let located = withParents.compactMap(layout.locate)
        let known = try index.signatures(of: located.map { ($0.container.identifier, $0.relativePath) })
        var pending: [IndexChange] = []
        var reads: [(file: ItemInspector.File, isNew: Bool)] = []
        var names: [ContainerID: ContainerNames] = [:]  // worked out once per container, not per item
        for location in located {
            let signature = known[location.container.identifier]?[location.relativePath]
            let looked: Look
            do {
                looked = try look(location, known: signature)
            } catch let error as IndexingError {
                // One item that cannot be read (a folder we may not search, a path past
                // PATH_MAX) keeps the row it had; the rest of the batch is indexed.
                logger.warning("not indexed: \(error)")
                continue
            }
            switch looked {
            case .nothing: break
            case .change(let change): pending.append(change)
            case .snapshot(let status):
                let container = names[location.container] ?? ContainerNames(location.container, layout: layout)
                names[location.container] = container
                reads.append(((location.relativePath, container, status), signature == nil))
            }
        }
        for (read, snapshot) in zip(reads, inspector.snapshotsInGroups(reads.map(\.file))) {
            guard let change = upsert(snapshot, of: read.file), let path = snapshot?.absolutePath else { continue }
            journal.note(read.isNew ? .appeared(path) : .changed(path))
            pending.append(change)
        }
        try write(pending)
        let linked = reads.map(\.file.status).filter { $0.signature.kind == .file && $0.linkCount > 1 }
        if followingLinks && !linked.isEmpty {
            try lookAtOtherNames(of: Set(linked.map { FileIdentity(device: $0.signature.device, inode: $0.signature.inode) }), besides: seen)
        }
    }

    /// Looks at the index's other names of `files`, which changed under a name in `looked`.
    private func lookAtOtherNames(of files: Set<FileIdentity>, besides looked: Set<RawPath>) throws {
        let others = try index.items(withFiles: files).compactMap { container, relativePath -> RawPath? in
            guard let id = try? ContainerID(container) else { return nil }
            return RawPath(id.folderName).appending(relativePath)
        }.filter { !looked.contains($0) }
        guard !others.isEmpty else { return }
        otherNamesChanged.append(contentsOf: others)
        try look(others, followingLinks: false)
    }

    /// Returns and resets the root-relative paths looked at because they are other names of
    /// a hard-linked file that changed (no event named them: the sync service hears of them here).
    public func takeOtherNamesChanged() -> [RawPath] {
        defer { otherNamesChanged = [] }
        return otherNamesChanged
    }

    /// What looking at one settled path calls for.
    private enum Look {
        case nothing
        case change(IndexChange)
        /// The item is new or changed: a snapshot of it, with this status, is to be written.
        case snapshot(FileStatus)
    }

    /// What one settled path means for the index. Folders that newly appeared are
    /// reconciled at once (their contents may predate the watch); a changed `.ubqignore`
    /// reconciles its whole container, since it changes which items belong in the index.
    private func look(_ location: ContainerLayout.Location, known: FileSignature?) throws -> Look {
        if location.relativePath.isEmpty {
            // A container folder: only its disappearance matters here.
            guard try FileStatus.read(layout.absolute(location)) == nil else { return .nothing }
            journal.note(.removed(layout.absolute(location)))
            return .change(.remove(container: location.container.identifier, relativePath: RawPath()))
        }
        if location.relativePath == RawPath(IgnoreCatalog.fileName) {
            ignores.invalidate(location.container)
            try reconcile(location.container, RawPath())
            return .nothing
        }
        let container = layout.folder(of: location.container)
        guard let status = try FileStatus.read(location.relativePath, beneath: container), !isIgnored(location, status) else {
            guard known != nil else { return .nothing }
            journal.note(.removed(layout.absolute(location)))
            return .change(.remove(container: location.container.identifier, relativePath: location.relativePath))
        }
        if status.signature.kind == .folder && known?.kind != .folder {
            try reconcile(location.container, location.relativePath)
            journal.note(.appeared(layout.absolute(location)))
            return .nothing
        }
        if known?.kind == .folder && status.signature.kind != .folder {
            // A folder replaced by a file or a link: the rows below it go too. No event
            // names them (a folder moved out of the tree reports nothing of what it held).
            try reconcile(location.container, location.relativePath)
            return .nothing
        }
        return known == status.signature ? .nothing : .snapshot(status)
    }

    private func rescan(_ rootRelative: RawPath) throws {
        guard let location = layout.locate(rootRelative) else {
            if rootRelative.isEmpty { try reconcileEverything() }
            return
        }
        if location.relativePath.isEmpty { ignores.invalidate(location.container) }
        try reconcile(location.container, location.relativePath)
        journal.note(.rescanned(layout.absolute(location)))
    }

    private func moved(from: RawPath, to: RawPath) throws {
        guard let source = layout.locate(from), let target = layout.locate(to),
            source.container == target.container, !source.relativePath.isEmpty, !target.relativePath.isEmpty
        else {
            try rescan(from)
            return try rescan(to)
        }
        try write([.move(container: source.container.identifier, from: source.relativePath, to: target.relativePath, absoluteTo: layout.absolute(target))])
        journal.note(.moved(from: layout.absolute(source), to: layout.absolute(target)))
        try reconcile(target.container, target.relativePath)
    }

    /// Makes the index equal to the disk for `relativePath` and everything below it.
    /// A path too long to start a scan at is reconciled from the deepest folder above it
    /// that is not (`ContainerLayout.reachable`).
    public func reconcile(_ container: ContainerID, _ relativePath: RawPath, readingContent: Bool = true, beforeReading: FolderGate? = nil) throws {
        let location = layout.reachable(ContainerLayout.Location(container: container, relativePath: relativePath))
        let relativePath = location.relativePath
        if readingContent || journalsChanges {
            try reconcile(location, readingContent: readingContent, beforeReading: beforeReading, write: write) { after in
                try self.index.signatures(container: container.identifier, under: relativePath, after: after, limit: self.pageSize)
            }
        } else {
            try index.applyInOneTransaction(container: container.identifier) { load in
                guard !load.containerIsNew else { return try loadNew(location, beforeReading: beforeReading, into: load) }
                try reconcile(location, readingContent: false, beforeReading: beforeReading, write: load.apply) { after in
                    try load.signatures(under: relativePath, after: after, limit: self.pageSize)
                }
            }
        }
    }

    /// Loads items of a container the index has no row of: there is nothing to compare,
    /// so every item walked is new. Three threads share the work: the walk's, one making
    /// rows (snapshots and columns), and this one, which only inserts them.
    private func loadNew(_ location: ContainerLayout.Location, beforeReading: FolderGate?, into load: BulkLoad) throws {
        let walk = try walkInBackground(location, beforeReading: beforeReading)
        defer { for failure in walk.finish() { logger.warning("cannot read folder: \(failure)") } }
        let maker = try rowMaker ?? NewRowMaker(database: mimeDatabase, logger: logger)
        rowMaker = maker
        let names = ContainerNames(location.container, layout: layout)
        // A batch is one element: the prefetcher hands each over as it is built.
        let rows = Prefetcher<NewRows, Void>(chunkSize: 1) { yield in
            maker.rows(from: walk, in: names, batchSize: Self.newRowBatchSize, yield: yield)
        }
        defer { rows.finish() }  // before the walk's: the row thread reads the walk
        while let batch = rows.next() {
            for kind in batch.kinds { statistics.record(kind) }
            try load.insert(batch)
        }
    }

    /// Rows a batch of new rows holds: small enough that a few in flight take little memory
    /// (about 500 bytes a row), large enough that handing them over costs nothing.
    static let newRowBatchSize = 1024

    /// Walks the disk (on a thread of its own) and the index's rows side by side, both in
    /// path order, and writes what differs in batches as it is found. In path order, the
    /// rows' keys also arrive in index order: appends, not random inserts.
    private func reconcile(
        _ location: ContainerLayout.Location, readingContent: Bool, beforeReading: FolderGate?, write: ([IndexChange]) throws -> Void,
        indexPage: @escaping (_ after: RawPath?) throws -> [IndexedSignature]
    ) throws {
        let walk = try walkInBackground(location, beforeReading: beforeReading)
        defer { for failure in walk.finish() { logger.warning("cannot read folder: \(failure)") } }
        var pages = IndexPages(read: indexPage)
        var difference = TreeDifference(disk: { walk.next() }, index: { try pages.next() })
        let names = ContainerNames(location.container, layout: layout)
        var batch: [IndexChange] = []
        batch.reserveCapacity(batchSize)
        // Items whose content is read wait here, to be read in groups under one claim.
        var reads: [ItemInspector.File] = []
        func readAll() {
            for (file, snapshot) in zip(reads, inspector.snapshotsInGroups(reads)) {
                if let change = upsert(snapshot, of: file) { batch.append(change) }
            }
            reads.removeAll(keepingCapacity: true)
        }
        while let found = try difference.next() {
            if readingContent, case .changed(let path, let status) = found {
                statistics.record(status.signature.kind)
                reads.append((path, names, status))
                if reads.count == ItemInspector.filesPerClaim { readAll() }
            } else if let change = indexChange(for: found, in: names, readingContent: readingContent) {
                batch.append(change)
            }
            if batch.count >= batchSize {
                try write(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        readAll()
        try write(batch)
    }

    /// The upsert of a snapshot read; nil (the path deferred) when another process's
    /// writer held the file.
    private func upsert(_ snapshot: ItemSnapshot?, of file: ItemInspector.File) -> IndexChange? {
        guard let snapshot else {
            journal.deferred.append(file.names.rootRelativeFolder.appending(file.relativePath))
            return nil
        }
        return .upsert(snapshot)
    }

    /// The write for one difference found, counted; nil when the item's content is claimed
    /// by another process's writer now (the path is deferred).
    private func indexChange(for found: TreeDifference.Change, in names: ContainerNames, readingContent: Bool) -> IndexChange? {
        switch found {
        case .removed(let path):
            statistics.removed += 1
            return .remove(container: names.identifier, relativePath: path)
        case .changed(let path, let status):
            statistics.record(status.signature.kind)
            return snapshot(path, in: names, status, readingContent: readingContent).map(IndexChange.upsert)
        }
    }

    /// The status of `location` and of everything below it, in path order, read on a
    /// thread of its own. Nothing when `location` is gone or ignored, so the merge removes
    /// its rows; an error reading its status is thrown instead (an unreadable folder must
    /// not look empty).
    private func walkInBackground(_ location: ContainerLayout.Location, beforeReading: FolderGate?) throws -> Prefetcher<(path: RawPath, status: FileStatus), [IndexingError]> {
        let folder = layout.absolute(location)
        let prefix = location.relativePath
        let rules = ignores.rules(for: location.container)
        var present = true
        var rootStatus: FileStatus?
        if !prefix.isEmpty {
            rootStatus = try FileStatus.read(folder)
            present = rootStatus.map { !isIgnored(location, $0) } ?? false
        }
        return Prefetcher { [present, rootStatus] yield in
            guard present else { return [] }
            if let rootStatus, !yield((prefix, rootStatus)) { return [] }
            var walk = OrderedTreeWalk(folder: folder, prefix: prefix, ignore: rules, beforeReading: beforeReading)
            while let entry = walk.next(), yield(entry) {}
            return walk.failures
        }
    }

    private func write(_ changes: [IndexChange]) throws {
        let record = try index.apply(changes, journaling: journalsChanges)
        if journalsChanges { applied.append(record) }
    }

    /// Returns and resets the rows written since the last call (empty unless
    /// `journalsChanges` is on).
    public func takeAppliedChanges() -> AppliedChanges {
        defer { applied = AppliedChanges() }
        return applied
    }

    /// Returns and resets the outcomes recorded since the last call (empty unless
    /// `recordsOutcomes` is on).
    public func takeOutcomes() -> [PathOutcome] {
        defer { journal.outcomes = [] }
        return journal.outcomes
    }

    /// Returns and resets the root-relative paths whose content could not be read because
    /// another process held a conflicting claim: look at them again later.
    public func takeDeferred() -> [RawPath] {
        defer { journal.deferred = [] }
        return journal.deferred
    }

    /// Returns and resets what reconciliations did.
    public func takeStatistics() -> ReconcileStatistics {
        defer { statistics = ReconcileStatistics() }
        return statistics
    }

    private func isIgnored(_ location: ContainerLayout.Location, _ status: FileStatus) -> Bool {
        ignores.rules(for: location.container).isIgnored(relativePath: location.relativePath.bytes, isDirectory: status.signature.kind == .folder)
    }

    /// Nil when the content is claimed by another process's writer now (the path is deferred).
    private func snapshot(_ relativePath: RawPath, in names: ContainerNames, _ status: FileStatus, readingContent: Bool = true) -> ItemSnapshot? {
        let snapshot = inspector.snapshot(relativePath, in: names, status: status, readingContent: readingContent)
        if snapshot == nil { journal.deferred.append(names.rootRelativeFolder.appending(relativePath)) }
        return snapshot
    }
}

/// What reconciliations changed: how many items were new or changed (their signature;
/// their content is read at once, or later for the start-up scan), folders updated, and
/// topmost paths removed.
public struct ReconcileStatistics: Sendable, CustomStringConvertible {
    public var filesRead = 0
    public var foldersUpdated = 0
    public var removed = 0

    mutating func record(_ kind: FileSignature.Kind) {
        if kind == .folder { foldersUpdated += 1 } else { filesRead += 1 }
    }

    public var description: String {
        "\(filesRead) new or changed items, \(foldersUpdated) folders updated, \(removed) removed"
    }
}
