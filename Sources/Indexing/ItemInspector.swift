import ContentTypes
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
final class ItemInspector {
    /// Text beyond this many bytes is not indexed (the whole file still is).
    static let maximumTextBytes = 1 << 20
    static let sniffBytes = 4096
    private let detector: ContentTypeDetector
    let logger: Logger

    init(detector: ContentTypeDetector, logger: Logger) {
        self.detector = detector
        self.logger = logger
    }

    /// What the index records of the item. Without `readingContent` no file is opened: a
    /// file that needs reading gets the type its name gives and `contentPending`.
    func snapshot(
        container: String, displayName: String, relativePath: RawPath, absolutePath: RawPath, status: FileStatus,
        readingContent: Bool = true
    ) -> ItemSnapshot {
        var item = ItemSnapshot(
            container: container, containerDisplayName: displayName, relativePath: relativePath,
            absolutePath: absolutePath, signature: status.signature, created: status.created,
            modified: status.modified, contentType: "public.item", contentTypeTree: ["public.item"])
        switch status.signature.kind {
        case .folder: item.setType(ContentTypeDetector.folder)
        case .symlink:
            item.setType(ContentTypeDetector.symlink)
            item.symlinkTarget = readLink(absolutePath)
        case .other: item.setType(contentType(of: relativePath, leadingBytes: nil))
        case .file: inspectFile(&item, readingContent: readingContent)
        }
        return item
    }

    private func inspectFile(_ item: inout ItemSnapshot, readingContent: Bool) {
        let name = item.relativePath.lastComponent ?? []
        var type = detector.contentType(fileName: name, leadingBytes: nil)
        if detector.needsContent(fileName: name) || type.isText {
            guard readingContent else {
                item.contentPending = true
                return item.setType(type)
            }
            let wanted = type.isText ? Self.maximumTextBytes : Self.sniffBytes
            // Size the buffer from the file: most documents are far below the text limit.
            let count = Int(clamping: min(Int64(wanted), max(item.signature.size, 0) + 1))
            switch readPrefix(item.absolutePath, count: count) {
            case .success(let bytes):
                if detector.needsContent(fileName: name) {
                    type = detector.contentType(fileName: name, leadingBytes: Array(bytes.prefix(Self.sniffBytes)))
                }
                if type.isText { item.textContent = String(decoding: bytes, as: UTF8.self) }
                if DiaryRecognizer.isCandidate(fileName: name, leadingBytes: bytes.prefix(Self.sniffBytes)) {
                    inspectDiary(&item, prefix: bytes, wholeFile: bytes.count < count)
                }
            case .failure(let error):
                item.readError = error.description
            }
        }
        item.setType(type)
    }

    private func contentType(of path: RawPath, leadingBytes: [UInt8]?) -> ContentType {
        detector.contentType(fileName: path.lastComponent ?? [], leadingBytes: leadingBytes)
    }

    func readPrefix(_ path: RawPath, count: Int) -> Result<[UInt8], IndexingError> {
        // O_NOFOLLOW: the item was a regular file at lstat; if it became a symlink since,
        // do not follow it out of the container. O_NONBLOCK: never hang on a FIFO.
        let fd = path.withCString { open($0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
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

    private func readLink(_ path: RawPath) -> [UInt8]? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = path.withCString { readlink($0, &buffer, buffer.count - 1) }
        guard n >= 0 else { return nil }
        return buffer.prefix(n).map { UInt8(bitPattern: $0) }
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

    init(_ container: ContainerID, layout: ContainerLayout) {
        identifier = container.identifier
        displayName = ContainerLayout.displayName(of: container)
        folder = layout.folder(of: container)
    }
}

extension ItemInspector {
    func snapshot(_ relativePath: RawPath, in container: ContainerNames, status: FileStatus, readingContent: Bool) -> ItemSnapshot {
        snapshot(
            container: container.identifier, displayName: container.displayName, relativePath: relativePath,
            absolutePath: container.folder.appending(relativePath), status: status, readingContent: readingContent)
    }
}
