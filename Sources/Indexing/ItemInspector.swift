import CStatx
import ContentTypes
import Coordination
import Foundation
import Glibc
import Logging
import MetadataIndex
import RawPaths
import UbiquitySettings

/// Reads what the index records of one item: status, content type and, for text, the
/// text to search. Reads a file's bytes only when its type needs sniffing or its text is
/// indexed. Of the files read that way, those whose first bytes start a property list are
/// read whole, as they may be diaries (see `ItemInspector+Diary`); a file whose name alone
/// decides a non-text type (`x.png`) is not opened, diary or not, so indexing stays one
/// `statx` for most binary files. An item that cannot be read is still recorded, with what
/// could be known and the reason in `readError`.
///
/// With a coordinator, a file's bytes are read under a coordinated read claim
/// (`withoutChanges`: presenters are not asked to save; `withoutCreatingLockFiles`: indexing
/// a whole tree leaves no lock file per document behind) that does not wait: if another
/// process holds a conflicting claim, the item is not inspected now (`snapshot` is nil) and
/// the indexer looks at it again later. The pipeline never sleeps on a claim.
final class ItemInspector {
    /// Text beyond this many bytes is not indexed (the whole file still is).
    static let maximumTextBytes = 1 << 20
    static let sniffBytes = 4096
    private let detector: ContentTypeDetector
    private let coordinator: FileCoordinator?
    let logger: Logger

    init(detector: ContentTypeDetector, coordinator: FileCoordinator? = nil, logger: Logger) {
        self.detector = detector
        self.coordinator = coordinator
        self.logger = logger
    }

    /// What the index records of the item; nil when the file's content is claimed by
    /// another process now. Without `readingContent` no file is opened: a file that needs
    /// reading gets the type its name gives and `contentPending`.
    ///
    /// `claimed`: the caller holds a read claim on the item already (`snapshots(_:)`).
    func snapshot(
        container: String, displayName: String, folder: RawPath, relativePath: RawPath, status: FileStatus,
        readingContent: Bool = true, claimed: Bool = false
    ) -> ItemSnapshot? {
        let absolutePath = folder.appending(relativePath)
        var item = ItemSnapshot(
            container: container, containerDisplayName: displayName, relativePath: relativePath,
            absolutePath: absolutePath, signature: status.signature, created: status.created,
            modified: status.modified, contentType: "public.item", contentTypeTree: ["public.item"])
        switch status.signature.kind {
        case .folder: item.setType(ContentTypeDetector.folder)
        case .symlink:
            item.setType(ContentTypeDetector.symlink)
            item.symlinkTarget = try? FileStatus.linkText(relativePath, beneath: folder)
        case .other: item.setType(contentType(of: relativePath, leadingBytes: nil))
        case .file:
            let (type, needsContent) = detector.typeByName(relativePath.lastComponent ?? [])
            item.setType(type)
            guard needsContent || type.isText else { return item }
            guard readingContent else {
                item.contentPending = true
                return item
            }
            if claimed {
                inspectFile(&item, type, sniffing: needsContent, in: folder)
            } else if !coordinatedRead({ inspectFile(&item, type, sniffing: needsContent, in: folder) }, absolutePath) {
                return nil
            }
        }
        return item
    }

    /// Runs `read` under a coordinated read claim of `path` if it can be had now; false when
    /// another process holds a conflicting claim. Without a coordinator, or if the lock
    /// folder itself fails, reads anyway (indexing must go on).
    private func coordinatedRead(_ read: () -> Void, _ path: RawPath) -> Bool {
        guard let coordinator else {
            read()
            return true
        }
        do {
            try coordinator.coordinate(readingItemAt: path.fileURL, options: Self.indexReading, timeout: .zero) { _ in
                read()
            }
        } catch let error as CoordinationError where error.code == .timedOut {
            logger.debug("\(path.readable): another process holds a claim on it, looking again later (\(error.message))")
            return false
        } catch {
            logger.warning("\(path.readable): reading without coordination: \(error)")
            read()
        }
        return true
    }

    /// Reads the file `item` describes, below the container folder `folder`. `sniffing`:
    /// its name leaves the type open (`ContentTypeDetector.typeByName`), so its content
    /// decides; told by the caller, which looked the name up already (a glob lookup cost
    /// about a tenth of reading a small file's text).
    private func inspectFile(_ item: inout ItemSnapshot, _ nameType: ContentType, sniffing: Bool, in folder: RawPath) {
        let name = item.relativePath.lastComponent ?? []
        var type = nameType
        let wanted = type.isText ? Self.maximumTextBytes : Self.sniffBytes
        // Size the buffer from the file: most documents are far below the text limit. (A size
        // may be Int64.max: XFS, Btrfs and tmpfs hold such sparse files. No `+ 1` on it.)
        let size = max(item.signature.size, 0)
        let count = size >= Int64(wanted) ? wanted : Int(size) + 1
        switch readPrefix(item.relativePath, beneath: folder, count: count) {
        case .success(let bytes):
            if sniffing {
                type = detector.contentType(fileName: name, leadingBytes: Array(bytes.prefix(Self.sniffBytes)))
            }
            if type.isText { item.textContent = String(decoding: bytes, as: UTF8.self) }
            if DiaryRecognizer.isCandidate(fileName: name, leadingBytes: bytes.prefix(Self.sniffBytes)) {
                inspectDiary(&item, prefix: bytes, wholeFile: bytes.count < count, in: folder)
            }
        case .failure(let error):
            item.readError = error.description
        }
        item.setType(type)
    }

    private func contentType(of path: RawPath, leadingBytes: [UInt8]?) -> ContentType {
        detector.contentType(fileName: path.lastComponent ?? [], leadingBytes: leadingBytes)
    }

    /// The first `count` bytes of the file `relative` below `folder`. The item was a
    /// regular file when its status was read; if it, or a folder on the way to it, became
    /// a symlink since, nothing is followed out of the container (`ubq_open_beneath`).
    /// O_NONBLOCK: never hang on a FIFO. The access time is left as it is where the kernel
    /// allows (`ubq_open_beneath_for_reading`).
    func readPrefix(_ relative: RawPath, beneath folder: RawPath, count: Int) -> Result<[UInt8], IndexingError> {
        let path = folder.appending(relative)
        let fd = folder.withCString { root in relative.withCString { ubq_open_beneath_for_reading(root, $0, O_RDONLY | O_NONBLOCK) } }
        guard fd >= 0 else { return .failure(IndexingError(path: path, operation: "open", errno: errno)) }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, count - filled) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return .failure(IndexingError(path: path, operation: "read", errno: errno)) }
            if n == 0 { break }
            filled += n
        }
        return .success(Array(buffer.prefix(filled)))
    }
}

extension ItemSnapshot {
    fileprivate mutating func setType(_ type: ContentType) {
        contentType = type.identifier
        contentTypeTree = type.tree
    }
}

/// What every item of one container shares, worked out once per container rather than
/// once per item (the start-up scan makes 100,000 snapshots in a row).
struct ContainerNames {
    let identifier: String
    let displayName: String
    let folder: RawPath
    /// The container folder relative to the root (`iCloud~com~example~Diary`).
    let rootRelativeFolder: RawPath

    init(_ container: ContainerID, layout: ContainerLayout) {
        identifier = container.identifier
        displayName = ContainerLayout.displayName(of: container)
        folder = layout.folder(of: container)
        rootRelativeFolder = RawPath(container.folderName)
    }
}

extension ItemInspector {
    func snapshot(
        _ relativePath: RawPath, in container: ContainerNames, status: FileStatus, readingContent: Bool, claimed: Bool = false
    ) -> ItemSnapshot? {
        snapshot(
            container: container.identifier, displayName: container.displayName, folder: container.folder, relativePath: relativePath,
            status: status, readingContent: readingContent, claimed: claimed)
    }

    /// The indexer's reads: presenters are not asked to save, no lock file is left behind.
    static let indexReading: FileCoordinator.ReadingOptions = [.withoutChanges, .withoutCreatingLockFiles]

    /// A file to inspect: where it is and the status read a moment ago.
    typealias File = (relativePath: RawPath, names: ContainerNames, status: FileStatus)

    /// Full snapshots of `files` (content read), in their order; nil for a file another
    /// process holds a claim on now (to look at again later).
    ///
    /// Files are read in groups under one claim each (`snapshots(_:)`): at most
    /// `filesPerClaim` files and `bytesPerClaim` bytes, so that an app saving one of them
    /// waits a few milliseconds at most. Files whose content is not read (folders, links,
    /// types known by name) are not claimed at all.
    func snapshotsInGroups(_ files: [File]) -> [ItemSnapshot?] {
        var snapshots = [ItemSnapshot?](repeating: nil, count: files.count)
        var group: [Int] = []
        var bytes: Int64 = 0
        func readGroup() {
            for (index, snapshot) in zip(group, self.snapshots(group.map { files[$0] })) { snapshots[index] = snapshot }
            group.removeAll(keepingCapacity: true)
            bytes = 0
        }
        for (index, file) in files.enumerated() {
            guard readsContent(file) else {
                snapshots[index] = snapshot(file.relativePath, in: file.names, status: file.status, readingContent: true)
                continue
            }
            let size = max(file.status.signature.size, 0)
            if !group.isEmpty && (group.count == Self.filesPerClaim || size > Self.bytesPerClaim - bytes) { readGroup() }
            group.append(index)
            let (sum, overflow) = bytes.addingReportingOverflow(size)  // a size may be Int64.max
            bytes = overflow ? .max : sum
        }
        readGroup()
        return snapshots
    }

    /// Whether a full snapshot of `file` opens it: a regular file whose type needs sniffing
    /// or whose text is indexed.
    private func readsContent(_ file: File) -> Bool {
        guard file.status.signature.kind == .file else { return false }
        let (type, needsContent) = detector.typeByName(file.relativePath.lastComponent ?? [])
        return needsContent || type.isText
    }

    static let filesPerClaim = 64
    static let bytesPerClaim: Int64 = 1 << 20

    /// Full snapshots of several files, under one read claim on all of them when it can be
    /// had now: a claim costs about as much as reading a small file. If another process
    /// holds a claim on one of them, each is read under its own claim, as `snapshot` does
    /// (the one held gets nil).
    private func snapshots(_ files: [File]) -> [ItemSnapshot?] {
        let alone = { files.map { self.snapshot($0.relativePath, in: $0.names, status: $0.status, readingContent: true) } }
        guard let coordinator, files.count > 1 else { return alone() }
        let urls = files.map { $0.names.folder.appending($0.relativePath).fileURL }
        let together = try? coordinator.coordinate(readingItemsAt: urls, options: Self.indexReading, timeout: .zero) { _ in
            files.map { self.snapshot($0.relativePath, in: $0.names, status: $0.status, readingContent: true, claimed: true) }
        }
        return together ?? alone()
    }
}

extension RawPath {
    var fileURL: URL {
        withCString { URL(fileURLWithFileSystemRepresentation: $0, isDirectory: false, relativeTo: nil) }
    }
}
