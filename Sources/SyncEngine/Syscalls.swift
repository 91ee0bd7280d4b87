import CStatx
import Glibc
import RawPaths
import SystemPackage

/// The few file operations sync needs, each retried on EINTR and failing with a
/// `SyncError` that names the call and the path.
enum Sys {
    static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) throws(SyncError) -> Int32 {
        while true {
            let fd = Glibc.open(path, flags | O_CLOEXEC, mode)
            if fd >= 0 { return fd }
            if errno != EINTR { throw .system("open", path) }
        }
    }

    /// The bytes of the regular file at `path`; nil if it is not one (a FIFO, a link, a
    /// folder) or cannot be read. Opened without waiting (O_NONBLOCK) and through no final
    /// link: a FIFO put in the mirror in a file's place must not hang whoever reads it.
    static func readRegularFile(_ path: String) -> [UInt8]? {
        guard let fd = try? open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW) else { return nil }
        defer { close(fd) }
        return readRegularFile(fd, path: path)
    }

    /// What `fd` (opened on `path`) holds, if it is a regular file that can be read.
    static func readRegularFile(_ fd: Int32, path: String) -> [UInt8]? {
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return try? readToEnd(fd, path: path)
    }

    /// Everything left to read from `fd`, or its first `limit` bytes.
    static func readToEnd(_ fd: Int32, path: String, limit: Int = .max) throws(SyncError) -> [UInt8] {
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { chunk.deallocate() }
        while bytes.count < limit {
            let wanted = UnsafeMutableRawBufferPointer(rebasing: chunk[..<min(chunk.count, limit - bytes.count)])
            let count = try read(fd, into: wanted, path: path)
            if count == 0 { break }
            bytes += wanted[..<count]
        }
        return bytes
    }

    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, path: String) throws(SyncError) -> Int {
        while true {
            let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw .system("read", path) }
        }
    }

    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(SyncError) {
        do {
            _ = try FileDescriptor(rawValue: fd).writeAll(bytes)
        } catch {
            throw .system("write", path, errno: (error as? Errno)?.rawValue ?? EIO)
        }
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(SyncError) {
        let result = bytes.withUnsafeBytes { raw in Result { () throws(SyncError) in try writeAll(fd, raw, path: path) } }
        try result.get()
    }

    static func fsync(_ fd: Int32, path: String) throws(SyncError) {
        guard Glibc.fsync(fd) == 0 else { throw .system("fsync", path) }
    }

    /// Starts writing `fd`'s dirty pages (from `offset`, `length` bytes; 0: to the end) to
    /// the disk without waiting: the fsync that later makes them durable then waits less,
    /// and fsyncs of many files no longer write them one by one. Only a hint: failure is
    /// ignored (the fsync reports real errors).
    static func startWriteback(_ fd: Int32, offset: Int64 = 0, length: Int64 = 0) {
        _ = ubq_start_writeback(fd, offset, length)
    }

    /// Makes the file at `path`, written and closed earlier, durable.
    static func fsyncFile(_ path: String) throws(SyncError) {
        let fd = try open(path, O_RDONLY | O_NOFOLLOW)
        defer { close(fd) }
        try fsync(fd, path: path)
    }

    /// Makes a rename or a new name in `folder` durable.
    static func fsyncFolder(_ folder: String) throws(SyncError) {
        let fd = try open(folder, O_RDONLY | O_DIRECTORY)
        defer { close(fd) }
        try fsync(fd, path: folder)
    }

    static func rename(_ from: String, _ to: String) throws(SyncError) {
        guard Glibc.rename(from, to) == 0 else { throw .system("rename", "\(from) → \(to)") }
    }

    /// Renames `from` to `to` only if nothing is at `to`, atomically: false (nothing
    /// renamed) if something is. A check before a plain rename would leave a moment in
    /// which a file saved at `to` is replaced. Where the filesystem has no
    /// RENAME_NOREPLACE, link then unlink give the same guarantee.
    static func renameNoReplace(_ from: String, _ to: String) throws(SyncError) -> Bool {
        switch try renameWithoutReplacing(from, to) {
        case .renamed: return true
        case .occupied: return false
        case .unsupported(let code): throw .system("link", "\(from) → \(to)", errno: code)
        }
    }

    /// How `renameWithoutReplacing` ended.
    enum NoReplaceRename {
        case renamed
        /// Something is at the destination: nothing was renamed.
        case occupied
        /// The filesystem has neither RENAME_NOREPLACE nor hard links (link(2) failed with
        /// this errno: EPERM on exFAT through exfat-fuse): nothing was renamed.
        case unsupported(Int32)
    }

    /// `renameNoReplace`, telling a filesystem that cannot do it from other failures.
    static func renameWithoutReplacing(_ from: String, _ to: String) throws(SyncError) -> NoReplaceRename {
        if ubq_rename_noreplace(from, to) == 0 { return .renamed }
        if errno == EEXIST { return .occupied }
        guard errno == EINVAL || errno == ENOSYS else { throw .system("rename", "\(from) → \(to)") }
        if Glibc.link(from, to) != 0 {
            if errno == EEXIST { return .occupied }
            if [EPERM, EOPNOTSUPP, ENOSYS].contains(errno) { return .unsupported(errno) }
            throw .system("link", "\(from) → \(to)")
        }
        guard unlink(from) == 0 else { throw .system("unlink", from) }
        return .renamed
    }

    /// Renames `from` to `to`, over what is there with `replacing`, else only if nothing is
    /// (`renameNoReplace`). False when nothing was renamed.
    static func rename(_ from: String, _ to: String, replacing: Bool) throws(SyncError) -> Bool {
        guard replacing else { return try renameNoReplace(from, to) }
        try rename(from, to)
        return true
    }

    /// Creates `path` and its missing parents; an existing folder is fine.
    static func makeFolders(_ path: String, mode: mode_t = 0o755) throws(SyncError) {
        if mkdir(path, mode) == 0 || errno == EEXIST { return }
        guard errno == ENOENT, let slash = path.lastSlash, slash > path.startIndex else { throw .system("mkdir", path) }
        try makeFolders(String(path[..<slash]), mode: mode)
        guard mkdir(path, mode) == 0 || errno == EEXIST else { throw .system("mkdir", path) }
    }

    /// Makes `path` and its missing parents below `root` (an existing ancestor, which may
    /// itself be reached through links) real folders: a symbolic link where one of them
    /// should be is removed first, not what it leads to. For the mirror's own folders
    /// (a view's), which hold nothing of a user's: what a pass writes or removes below them
    /// must not land where a link put there leads.
    static func makePlainFolders(_ path: String, below root: String) throws(SyncError) {
        guard let rest = path.below(root) else { return try makeFolders(path) }
        var current = root
        for name in rest.pathNames {
            current += "/" + name
            if let info = lstat(current), info.st_mode & S_IFMT == S_IFLNK, unlink(current) != 0, errno != ENOENT {
                throw .system("unlink", current)
            }
            guard mkdir(current, 0o755) == 0 || errno == EEXIST else { throw .system("mkdir", current) }
        }
    }

    /// `makeFolders` for the folder `relative` below `root`, following no symlink on the
    /// way (`ubq_make_folders_beneath`): a link where a folder should be fails with ELOOP,
    /// and nothing is made through it. Returns the folders that gained an entry (a folder
    /// made in them), shallowest first: what must be fsynced before anything recorded
    /// counts on the new folders (`Sys.fsyncFolder`, `ChangeBatch.syncFolders`).
    static func makeFolders(_ relative: String, beneath root: String, mode: mode_t = 0o755) throws(SyncError) -> [String] {
        let shallowestMade = Int(ubq_make_folders_beneath(root, relative, UInt32(mode)))
        guard shallowestMade >= 0 else { throw .system("mkdir", root + "/" + relative) }
        guard shallowestMade > 0 else { return [] }
        let components = relative.pathNames
        return (shallowestMade - 1..<components.count).map { depth in
            components[..<depth].reduce(root) { $0 + "/" + $1 }
        }
    }

    /// Makes the folders that hold `relative`, a path below the container folder `root`,
    /// through no symlink (`makeFolders(_:beneath:)`), and returns the folders that gained
    /// an entry. Where a folder on the way is a link (another device made it one while a
    /// file below it changed elsewhere), writing there would write where the link leads,
    /// maybe outside the container: refused, and said so.
    static func makeParentFolders(of relative: String, beneath root: String) throws(SyncError) -> [String] {
        let folder = folderPart(of: relative)
        do {
            return try makeFolders(folder, beneath: root)
        } catch where error.code == .system(ELOOP) || error.code == .system(ENOTDIR) {
            throw SyncError(
                error.code,
                "\(relative) not written: a folder on its way is a symbolic link or a file here (\(folder)), and sync writes through no link; "
                    + "the version stays in the mirror (`ubq versions`)")
        }
    }

    /// The folder part of a relative path, "" for one at the top (`parent(of:)` is for
    /// absolute paths).
    static func folderPart(of relative: String) -> String {
        relative.folderBeforeLastSlash.map(String.init) ?? ""
    }

    static func lstat(_ path: String) -> stat? {
        var info = stat()
        return Glibc.lstat(path, &info) == 0 ? info : nil
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastSlash else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
