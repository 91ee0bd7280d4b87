import RawPaths

/// One indexed item's signature, as a reconciliation pages through them in path order.
public struct IndexedSignature: Sendable {
    public var relativePath: RawPath
    public var signature: FileSignature

    public init(relativePath: RawPath, signature: FileSignature) {
        self.relativePath = relativePath
        self.signature = signature
    }
}

/// What the index records of an item's identity on disk, to tell whether it changed
/// without reading it again.
public struct FileSignature: Sendable, Hashable {
    public enum Kind: String, Sendable { case file, folder, symlink, other }

    public var kind: Kind
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var modifiedNanoseconds: Int64
    public var changedNanoseconds: Int64

    public init(kind: Kind, device: UInt64, inode: UInt64, size: Int64, modifiedNanoseconds: Int64, changedNanoseconds: Int64) {
        self.kind = kind
        self.device = device
        self.inode = inode
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
        self.changedNanoseconds = changedNanoseconds
    }
}

/// Everything the index stores about one item, as read from the disk.
public struct ItemSnapshot: Sendable, Equatable {
    public var container: String
    public var containerDisplayName: String
    /// The path below the container folder.
    public var relativePath: RawPath
    public var absolutePath: RawPath
    public var signature: FileSignature
    /// Seconds since 2001-01-01 (birth time where the filesystem records it).
    public var created: Double?
    public var modified: Double
    public var contentType: String
    public var contentTypeTree: [String]
    public var symlinkTarget: [UInt8]?
    /// The text for full-text search; nil when the item is not text or was not read.
    public var textContent: String?
    /// Why the item could not be read, if it could not.
    public var readError: String?
    /// The entries, in file order, when the item is a diary; nil for every other item.
    public var diaryEntries: [DiaryEntryRecord]?
    /// The item's content was not read yet: its type is the one its name gives, and it has
    /// no text or diary entries until the content is read (`IndexChange.fillContent`).
    public var contentPending = false

    public init(container: String, containerDisplayName: String, relativePath: RawPath, absolutePath: RawPath, signature: FileSignature, created: Double?, modified: Double, contentType: String, contentTypeTree: [String], symlinkTarget: [UInt8]? = nil, textContent: String? = nil, readError: String? = nil, diaryEntries: [DiaryEntryRecord]? = nil) {
        self.container = container
        self.containerDisplayName = containerDisplayName
        self.relativePath = relativePath
        self.absolutePath = absolutePath
        self.signature = signature
        self.created = created
        self.modified = modified
        self.contentType = contentType
        self.contentTypeTree = contentTypeTree
        self.symlinkTarget = symlinkTarget
        self.textContent = textContent
        self.readError = readError
        self.diaryEntries = diaryEntries
    }
}

/// One change to apply to the index.
public enum IndexChange: Sendable, Equatable {
    case upsert(ItemSnapshot)
    /// Removes the item at the path and everything below it.
    case remove(container: String, relativePath: RawPath)
    /// A folder moved: its row and every row below it follow.
    case move(container: String, from: RawPath, to: RawPath, absoluteTo: RawPath)
    /// The content of an item recorded with `contentPending`: written only if the row
    /// still waits for it and its signature is the snapshot's (otherwise the item changed
    /// meanwhile and the watcher's own change indexes it).
    case fillContent(ItemSnapshot)
}
