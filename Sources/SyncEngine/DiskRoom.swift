import Glibc

/// Whether a disk has room for a copy, asked before writing it. A copy that cannot fit
/// would fill the disk, fail and be removed again at every retry until space is made: a
/// 3 MB download to a 2 MB disk failed its `write` with ENOSPC at each pass.
enum DiskRoom {
    /// Throws ENOSPC, writing nothing, when the disk holding `folder` has less room than
    /// `size` bytes, or than `source` takes on its own disk if that is less (a sparse file's
    /// holes take none). Unknown room (a folder not made yet) lets the write find out.
    static func check(for source: Int32, size: Int64, in folder: String) throws(SyncError) {
        var info = stat()
        let needed = fstat(source, &info) == 0 ? min(size, Int64(info.st_blocks) * 512) : size
        guard let room = free(in: folder), needed > room else { return }
        throw SyncError(.system(ENOSPC), "no room for \(needed) bytes in \(folder) (\(room) free): \(String(cString: strerror(ENOSPC)))")
    }

    /// The bytes this process may still write on the disk holding `folder`: root may use
    /// the blocks kept back for it, others may not.
    static func free(in folder: String) -> Int64? {
        var disk = statvfs()
        guard statvfs(folder, &disk) == 0 else { return nil }
        let blocks = geteuid() == 0 ? disk.f_bfree : disk.f_bavail
        let (bytes, overflow) = UInt64(blocks).multipliedReportingOverflow(by: UInt64(disk.f_frsize))
        return overflow ? .max : Int64(clamping: bytes)
    }
}
