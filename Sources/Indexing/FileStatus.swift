import CivilCalendar
import CStatx
import Glibc
import MetadataIndex
import RawPaths

/// One status read of an item (statx), with its birth time where the filesystem keeps one.
public struct FileStatus: Sendable {
    public var signature: FileSignature
    public var created: Double?
    public var modified: Double
    /// Permission bits (`st_mode & 07777`).
    public var permissions: UInt32
    /// How many names (hard links) the item has: a file with more than one changes under
    /// all of them when it changes under one.
    public var linkCount: UInt32

    /// Seconds between 1970 and 2001 (NSDate's reference date).
    static let referenceOffset: Double = 978_307_200

    /// Reads the status of `path` without following a final symlink; nil if it is gone.
    public static func read(_ path: RawPath) throws(IndexingError) -> FileStatus? {
        var raw = ubq_file_status()
        guard path.withCString({ ubq_file_status_at(AT_FDCWD, $0, &raw) }) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw IndexingError(path: path, operation: "statx", errno: errno)
        }
        return FileStatus(raw)
    }

    /// Reads the status of `relative` below `folder` without following any symlink on the
    /// way, nor a final one; nil if it is gone, or if the way there now passes through a
    /// symlink (a folder replaced by a link to `/etc` must not show `/etc`'s files as the
    /// folder's).
    public static func read(_ relative: RawPath, beneath folder: RawPath) throws(IndexingError) -> FileStatus? {
        var raw = ubq_file_status()
        let result = folder.withCString { folderPath in relative.withCString { ubq_file_status_beneath(folderPath, $0, &raw) } }
        guard result == 0 else {
            if [ENOENT, ENOTDIR, ELOOP, EXDEV].contains(errno) { return nil }
            throw IndexingError(path: folder.appending(relative), operation: "statx", errno: errno)
        }
        return FileStatus(raw)
    }

    /// The text of the symlink `relative` below `folder`, read with no symlink followed on
    /// the way (`ubq_readlink_beneath`): a folder swapped for a link since the status was
    /// read does not lead the read out of `folder`. Used by the index and by sync.
    public static func linkText(_ relative: RawPath, beneath folder: RawPath) throws(IndexingError) -> [UInt8] {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = folder.withCString { root in relative.withCString { ubq_readlink_beneath(root, $0, &buffer, UInt(buffer.count - 1)) } }
        guard count >= 0 else { throw IndexingError(path: folder.appending(relative), operation: "readlink", errno: errno) }
        return buffer.prefix(count).map { UInt8(bitPattern: $0) }
    }

    /// Reads the status of `name` inside an open folder; nil if it is gone.
    static func read(folderFD: Int32, name: [UInt8]) -> FileStatus? {
        var raw = ubq_file_status()
        guard name.withCString({ ubq_file_status_at(folderFD, $0, &raw) }) == 0 else { return nil }
        return FileStatus(raw)
    }

    init(_ raw: ubq_file_status) {
        let mtime = FileTime.nanoseconds(seconds: raw.modified_seconds, nanoseconds: Int64(raw.modified_nanoseconds))
        let ctime = FileTime.nanoseconds(seconds: raw.changed_seconds, nanoseconds: Int64(raw.changed_nanoseconds))
        signature = FileSignature(
            kind: Self.kind(mode_t(raw.mode)), device: raw.device, inode: raw.inode,
            size: raw.size, modifiedNanoseconds: mtime, changedNanoseconds: ctime)
        modified = Double(raw.modified_seconds) + Double(raw.modified_nanoseconds) / 1e9 - Self.referenceOffset
        permissions = raw.mode & 0o7777
        linkCount = raw.link_count
        if raw.has_birth_time != 0 {
            created = Double(raw.birth_seconds) + Double(raw.birth_nanoseconds) / 1e9 - Self.referenceOffset
        }
    }

    static func kind(_ mode: mode_t) -> FileSignature.Kind {
        switch mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .folder
        case S_IFLNK: return .symlink
        default: return .other
        }
    }
}

/// A failed filesystem call while indexing, naming the path and the call.
public struct IndexingError: Error, Sendable, CustomStringConvertible {
    public var path: RawPath
    public var operation: String
    public var errno: Int32

    public var description: String {
        "\(operation) \(path.readable): \(String(cString: strerror(errno)))"
    }
}
