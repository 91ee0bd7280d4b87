import Glibc
import RawPaths

/// The full pass's check of the whole view: whatever a crash or a person left there, the
/// view ends up equal to the base again. Names are read as raw bytes, so a stray entry
/// whose name is not UTF-8 is removed like any other.
extension MirrorView {
    /// Removes every entry the base does not hold, then sets every entry it does (each
    /// left alone when already right). Parents come before children in both steps.
    func repair(base: [String: BaseRow], problems: inout ViewProblems) throws(SyncError) {
        try Sys.makeFolders(folder)
        try removeStrays(below: RawPath(folder), relative: nil, base: base, problems: &problems)
        for path in base.keys.sorted() {  // the names alone: sorting the rows copied each
            guard let state = base[path]?.entry.state else { continue }
            try problems.attempt(path) { () throws(SyncError) in try set(path, to: state) }
        }
    }

    /// Removes what the base does not hold below `absolute` (the view's `relative` path,
    /// nil for its root), descending into the folders it holds as folders.
    private func removeStrays(below absolute: RawPath, relative: String?, base: [String: BaseRow], problems: inout ViewProblems) throws(SyncError) {
        for name in Self.names(in: absolute) {
            let child = absolute.appending(name)
            let path = String(validating: name, as: UTF8.self).map { name in relative.map { "\($0)/\(name)" } ?? name }
            guard let path, let state = base[path]?.entry.state else {
                try problems.attempt(RawPath(bytes: name).readable) { () throws(SyncError) in try Self.removeTree(child) }
                continue
            }
            if state.kind == .folder, Self.lstat(child).map({ $0.st_mode & S_IFMT == S_IFDIR }) == true {
                try removeStrays(below: child, relative: path, base: base, problems: &problems)
            }
        }
    }

    /// Removes `path` and everything below it; nothing there is fine.
    static func removeTree(_ path: RawPath) throws(SyncError) {
        guard let info = lstat(path) else { return }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            guard path.withCString({ unlink($0) }) == 0 || errno == ENOENT else { throw .system("unlink", path.readable) }
            return
        }
        _ = path.withCString { chmod($0, 0o755) }  // a person may have made it read-only
        for name in names(in: path) { try removeTree(path.appending(name)) }
        guard path.withCString({ rmdir($0) }) == 0 || errno == ENOENT else { throw .system("rmdir", path.readable) }
    }

    /// The names in the folder `path` (not `.` and `..`), as bytes; none if it cannot be read.
    static func names(in path: RawPath) -> [[UInt8]] {
        guard let handle = path.withCString({ opendir($0) }) else { return [] }
        defer { closedir(handle) }
        return DirectoryEntry.names(handle)
    }

    static func lstat(_ path: RawPath) -> stat? {
        var info = stat()
        return path.withCString { Glibc.lstat($0, &info) } == 0 ? info : nil
    }
}
