import Glibc

/// Writing new files durably (DESIGN.md, decision 6): create, write, fsync; the caller
/// renames the file into place and fsyncs the folder.
enum DurableFile {
    /// Creates `path` (it must not exist), lets `body` write to it, fsyncs (unless the
    /// caller syncs a whole batch later) and closes it. On failure the partial file is removed.
    /// With `makingFolder`, a missing folder is made and the create tried again.
    static func write<T>(
        _ path: String, mode: mode_t, sync: Bool = true, makingFolder: Bool = false, _ body: (Int32) throws(SyncError) -> T
    ) throws(SyncError) -> T {
        let fd = try create(path, mode: mode, makingFolder: makingFolder)
        defer { close(fd) }
        do {
            let result = try body(fd)
            if sync { try Sys.fsync(fd, path: path) }
            return result
        } catch {
            unlink(path)
            throw error
        }
    }

    /// The folder is made only when the create finds it missing, not checked before each
    /// file: a first sync stages every file of the container in one folder.
    private static func create(_ path: String, mode: mode_t, makingFolder: Bool) throws(SyncError) -> Int32 {
        do {
            return try Sys.open(path, O_WRONLY | O_CREAT | O_EXCL, mode)
        } catch where makingFolder && error.code == .system(ENOENT) {
            try Sys.makeFolders(Sys.parent(of: path))
            return try Sys.open(path, O_WRONLY | O_CREAT | O_EXCL, mode)
        }
    }

    /// A staging name beside `path`, in the same folder (so the final rename is atomic),
    /// with the `.ubq-` prefix the watcher and the index always ignore.
    static func stagingPath(beside path: String) -> String {
        "\(Sys.parent(of: path))/\(stagingPrefix)\(UniqueToken.next())\(stagingSuffix)"
    }

    private static let stagingPrefix = ".ubq-sync-"
    private static let stagingSuffix = ".tmp"

    /// Whether `name` is one of `stagingPath`'s names: the prefix, a `UniqueToken` (hex
    /// digits, "-", decimal digits; before 2026-11-24, a decimal number), the suffix.
    /// Outside an action, such a file is what a killed daemon left behind (only the sync
    /// thread writes them), and a pass removes it. The token is matched whole, not just the
    /// prefix and suffix: a user's own `.ubq-sync-notes.tmp` is not synced (the `.ubq-`
    /// prefix never is), but not deleted.
    @Sendable static func isStagingName(_ name: [UInt8]) -> Bool {
        guard name.starts(with: stagingPrefix.utf8), name.reversed().starts(with: stagingSuffix.utf8.reversed()),
            name.count > stagingPrefix.utf8.count + stagingSuffix.utf8.count
        else { return false }
        let token = name.dropFirst(stagingPrefix.utf8.count).dropLast(stagingSuffix.utf8.count)
        let parts = token.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        let hexLetters = UInt8(ascii: "a")...UInt8(ascii: "f")  // String(_:radix:) writes lower case
        if parts.count == 1 { return (1...20).contains(parts[0].count) && parts[0].allSatisfy(digits.contains) }
        return parts.count == 2 && (1...16).contains(parts[0].count) && parts[0].allSatisfy { digits.contains($0) || hexLetters.contains($0) }
            && !parts[1].isEmpty && parts[1].allSatisfy(digits.contains)
    }

    /// `replace`, unless `path` exists already (another writer was first): false then, and
    /// nothing is written.
    ///
    /// A filesystem with neither RENAME_NOREPLACE nor hard links (exFAT through
    /// exfat-fuse, some FUSE and SMB mounts) has no way to put a whole file in place
    /// without replacing: there the file is made in place (O_EXCL), so a reader may find
    /// it empty or short for a moment, and a crash may leave it so.
    static func create(_ path: String, with bytes: [UInt8], mode: mode_t = 0o644) throws(SyncError) -> Bool {
        let outcome = try staged(bytes, beside: path, mode: mode) { staging throws(SyncError) in
            let outcome = try Sys.renameWithoutReplacing(staging, path)
            guard case .renamed = outcome else {
                unlink(staging)  // nothing was renamed
                return outcome
            }
            return outcome
        }
        switch outcome {
        case .renamed: break
        case .occupied: return false
        case .unsupported:
            do {
                try write(path, mode: mode) { fd throws(SyncError) in try Sys.writeAll(fd, bytes, path: path) }
            } catch where error.code == .system(EEXIST) {
                return false
            }
        }
        try Sys.fsyncFolder(Sys.parent(of: path))
        return true
    }

    /// Writes `bytes` to `path` atomically: staging file, fsync, rename, fsync the folder.
    static func replace(_ path: String, with bytes: [UInt8], mode: mode_t = 0o644) throws(SyncError) {
        try staged(bytes, beside: path, mode: mode) { staging throws(SyncError) in try Sys.rename(staging, path) }
        try Sys.fsyncFolder(Sys.parent(of: path))
    }

    /// Writes `bytes` durably to a new staging file beside `path` and hands its path to
    /// `place`, which puts it in place (or removes it). Removed if either step fails.
    private static func staged<Placed>(
        _ bytes: [UInt8], beside path: String, mode: mode_t, _ place: (String) throws(SyncError) -> Placed
    ) throws(SyncError) -> Placed {
        let staging = stagingPath(beside: path)
        do {
            try write(staging, mode: mode) { fd throws(SyncError) in try Sys.writeAll(fd, bytes, path: staging) }
            return try place(staging)
        } catch {
            unlink(staging)
            throw error
        }
    }
}
