import FileEvents
import Glibc
import IgnoreRules
import RawPaths

/// Walks a folder tree and yields the status of every item in path order (`RawPath`'s byte
/// order, which is the index's), one at a time, never following symlinks.
///
/// Byte order is not depth-first order: `a b` and `a.txt` sort between the folder `a` and
/// its contents `a/…`, because space and `.` sort before `/`. So a folder's listing is
/// sorted with its subfolders' contents keyed as the subfolder's path plus `/`, and a
/// subfolder is read only when its contents come up. Only the listings of the folders on
/// the way down are held at once, so reconciling against the index's ordered rows needs
/// no map of the whole tree.
///
/// Works relative to open folder descriptors (`openat`/`fstatat`), so a path longer than
/// PATH_MAX and a folder renamed mid-walk are handled, and names keep their raw bytes.
public struct OrderedTreeWalk: IteratorProtocol {
    private let ignore: IgnoreRules
    private let beforeReading: FolderGate?
    private let notice: NameFilter?
    /// The folders being read, outermost first; each owns its open handle.
    private var frames: [Frame] = []
    /// Folders that could not be read, with the reason.
    public private(set) var failures: [IndexingError] = []
    /// The ignored files whose name `notice` accepted, as they came up.
    public private(set) var noticed: [RawPath] = []

    /// Walks the items below `folder` (absolute), naming each by its path below `prefix`.
    /// `beforeReading` is called with each folder's absolute path before it is opened;
    /// ignored files whose name `notice` accepts are collected in `noticed`.
    public init(folder: RawPath, prefix: RawPath, ignore: IgnoreRules, beforeReading: FolderGate? = nil, notice: NameFilter? = nil) {
        self.ignore = ignore
        self.beforeReading = beforeReading
        self.notice = notice
        beforeReading?(folder)
        let fd = folder.withCString { open($0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        guard fd >= 0 else {
            if errno != ENOENT && errno != ENOTDIR { failures.append(IndexingError(path: folder, operation: "open", errno: errno)) }
            return
        }
        enter(fd: fd, absolute: folder, relative: prefix)
    }

    public mutating func next() -> (path: RawPath, status: FileStatus)? {
        while let innermost = frames.indices.last {
            guard let step = frames[innermost].steps.popLast() else {
                closedir(frames.removeLast().handle)
                continue
            }
            switch step.kind {
            case .item(let status): return (step.relativePath, status)
            case .contents(let name): descend(from: frames[innermost], into: name, relative: step.relativePath)
            }
        }
        return nil
    }

    private mutating func descend(from parent: Frame, into name: [UInt8], relative: RawPath) {
        let absolute = parent.absolute.appending(name)
        beforeReading?(absolute)
        let fd = name.withCString { openat(dirfd(parent.handle), $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        if fd >= 0 {
            enter(fd: fd, absolute: absolute, relative: relative)
        } else if errno != ENOENT {
            failures.append(IndexingError(path: absolute, operation: "openat", errno: errno))
        }
    }

    /// Lists the folder open at `fd` (taking ownership of it) and pushes its frame.
    private mutating func enter(fd: Int32, absolute: RawPath, relative: RawPath) {
        guard let handle = fdopendir(fd) else {
            failures.append(IndexingError(path: absolute, operation: "fdopendir", errno: errno))
            close(fd)
            return
        }
        var steps: [Step] = []
        for name in DirectoryEntry.names(handle) {
            let childRelative = relative.appending(name)
            guard let status = FileStatus.read(folderFD: fd, name: name) else { continue }  // gone meanwhile
            let isFolder = status.signature.kind == .folder
            if ignore.isIgnoredEntry(relativePath: childRelative.bytes, isDirectory: isFolder) {
                if !isFolder, notice?(name) == true { noticed.append(childRelative) }
                continue
            }
            steps.append(Step(relativePath: childRelative, kind: .item(status)))
            if isFolder { steps.append(Step(relativePath: childRelative, kind: .contents(name: name))) }
        }
        // Last first: `next()` pops from the end. The positions are sorted, not the steps,
        // which are large: moving them through the sort took as long as the comparisons.
        let order = steps.indices.sorted { RawPath.precedes(steps[$1].key, steps[$0].key) }
        frames.append(Frame(handle: handle, absolute: absolute, steps: order.map { steps[$0] }))
    }

    private struct Frame {
        let handle: OpaquePointer
        let absolute: RawPath
        var steps: [Step]
    }

    /// An item of a folder's listing, or the contents of one of its subfolders.
    private struct Step {
        enum Kind {
            case item(FileStatus)
            case contents(name: [UInt8])
        }
        var relativePath: RawPath
        var kind: Kind
        /// Where the step falls in the whole tree's byte order: an item at its path, a
        /// subfolder's contents at the subfolder's path plus `/`.
        let key: [UInt8]

        init(relativePath: RawPath, kind: Kind) {
            self.relativePath = relativePath
            self.kind = kind
            if case .contents = kind { key = relativePath.bytes + [0x2F] } else { key = relativePath.bytes }
        }
    }
}

/// Called with a folder's absolute path before a walk reads it (to wait for its watch).
public typealias FolderGate = @Sendable (_ folder: RawPath) -> Void

/// Picks names out of a folder's listing by their raw bytes.
public typealias NameFilter = @Sendable (_ name: [UInt8]) -> Bool
