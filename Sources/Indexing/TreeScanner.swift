import FileEvents
import Glibc
import IgnoreRules
import RawPaths

/// Walks a folder tree and reports the status of every item, never following symlinks.
///
/// Works relative to open folder descriptors (`openat`/`fstatat`), so a path longer than
/// PATH_MAX and a folder renamed mid-walk are handled, and names keep their raw bytes.
public struct TreeScanner {
    let ignore: IgnoreRules
    /// Folders that could not be read, with the reason.
    public private(set) var failures: [IndexingError] = []

    public init(ignore: IgnoreRules) {
        self.ignore = ignore
    }

    /// The items below `folder` (absolute), keyed by their path relative to `base` + `prefix`.
    public mutating func scan(folder: RawPath, prefix: RawPath) -> [RawPath: FileStatus] {
        var found: [RawPath: FileStatus] = [:]
        let fd = folder.withCString { open($0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        guard fd >= 0 else {
            if errno != ENOENT && errno != ENOTDIR { failures.append(IndexingError(path: folder, operation: "open", errno: errno)) }
            return found
        }
        walk(fd: fd, absolute: folder, relative: prefix, into: &found)
        return found
    }

    /// Reads one folder (taking ownership of `fd`) and recurses into its subfolders.
    private mutating func walk(fd: Int32, absolute: RawPath, relative: RawPath, into found: inout [RawPath: FileStatus]) {
        guard let handle = fdopendir(fd) else {
            failures.append(IndexingError(path: absolute, operation: "fdopendir", errno: errno))
            close(fd)
            return
        }
        defer { closedir(handle) }
        for name in Self.entryNames(handle) {
            let childRelative = relative.appending(name)
            guard let status = FileStatus.read(folderFD: fd, name: name) else { continue }
            let isFolder = status.signature.kind == .folder
            if ignore.isIgnoredEntry(relativePath: childRelative.bytes, isDirectory: isFolder) { continue }
            found[childRelative] = status
            guard isFolder else { continue }
            let childFD = name.withCString { openat(fd, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
            if childFD >= 0 {
                walk(fd: childFD, absolute: absolute.appending(name), relative: childRelative, into: &found)
            } else if errno != ENOENT {
                failures.append(IndexingError(path: absolute.appending(name), operation: "openat", errno: errno))
            }
        }
    }

    private static func entryNames(_ handle: OpaquePointer) -> [[UInt8]] {
        var names: [[UInt8]] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix(while: { $0 != 0 })) }
            if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
        }
        return names
    }
}

extension Array where Element == UInt8 {
    /// Calls `body` with the bytes as a NUL-terminated C string.
    func withCString<R>(_ body: (UnsafePointer<CChar>) -> R) -> R {
        (map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
