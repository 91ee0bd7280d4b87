import Glibc

/// Files with holes: a virtual machine's disk image, a database or download preallocated
/// with `ftruncate`. Copied byte for byte, a 1 GiB image holding 3 MB of data took 1 GiB
/// in the store and again on every device. Where a copy's source has holes, the copy
/// leaves out its blocks of zeros, so they stay holes (as `cp --sparse=auto` and
/// `rsync --sparse` do); what is read, and so hashed, is the same either way.
enum SparseFiles {
    /// The unit of holes looked for: the block of most filesystems.
    static let block = 4096
    private static let zeros = [UInt8](repeating: 0, count: block)

    /// Whether the file open as `fd` takes less room on the disk than its size says: it
    /// has holes (or the filesystem compresses it: then the copy merely leaves out its
    /// blocks of zeros). One `fstat`; a dense file is copied as before.
    static func hasHoles(_ fd: Int32) -> Bool {
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > block else { return false }
        return Int64(info.st_blocks) * 512 < Int64(info.st_size)
    }

    /// Writes `chunk` at `fd`'s offset `offset` (where the previous chunk ended), seeking
    /// over its blocks of zeros (aligned to the file's blocks) instead of writing them.
    static func write(_ fd: Int32, _ chunk: UnsafeRawBufferPointer, at offset: Int64, path: String) throws(SyncError) {
        var start = 0
        while start < chunk.count {
            let end = min(chunk.count, start + block - Int((offset + Int64(start)) % Int64(block)))
            let piece = UnsafeRawBufferPointer(rebasing: chunk[start..<end])
            if isZero(piece) {
                guard lseek(fd, off_t(piece.count), SEEK_CUR) >= 0 else { throw .system("lseek", path) }
            } else {
                try Sys.writeAll(fd, piece, path: path)
            }
            start = end
        }
    }

    /// Gives the copy its full `size`: one that ends in a hole was not written to its end.
    static func finish(_ fd: Int32, size: Int64, path: String) throws(SyncError) {
        guard ftruncate(fd, off_t(size)) == 0 else { throw .system("ftruncate", path) }
    }

    private static func isZero(_ piece: UnsafeRawBufferPointer) -> Bool {
        zeros.withUnsafeBytes { memcmp($0.baseAddress!, piece.baseAddress!, piece.count) == 0 }
    }
}
