import CStatx
import Glibc

/// A copy written straight to the disk (O_DIRECT), past the page cache: for a large file's
/// early copy, made on a thread of its own while the scan hashes the file (`PendingCopy`).
///
/// Through the page cache, the copy of 1 GiB was a kernel copy of every page, then the
/// kernel's writeback of them, both needing CPU while the hash had one core: the fsync
/// after the hash still waited 0.27-0.29 s for the last pages (a scratch trace, new ext4).
/// Written directly, the disk takes the data from the copy's own buffer, and no dirty
/// pages are left behind, to be throttled and to evict the user's. Read and written 8 MiB
/// at a time, 1 GiB took 0.54-0.56 s on this machine's disk, as cp and an fsync took
/// (0.53-0.60 s); 32 MiB at a time, 0.61-0.65 s (scratch seq.py, 3 rounds each). A daemon's
/// sync of a new 1 GiB file then took 0.58-0.66 s in 8 rounds, about the hash's own time
/// (`openssl dgst -sha256`: 0.62-0.63 s), against 0.63-0.91 s, and 2.4-2.7 s in the 3
/// rounds where the disk's writeback fell behind, with the kernel copy (scratch big.sh).
enum DirectCopy {
    /// Direct writes must be whole blocks from aligned memory at aligned offsets: 4 KiB
    /// suits disks of 512-byte and 4 KiB sectors alike.
    static let block = 4096
    static let piece = 8 << 20

    /// Copies `source`, from its offset to its end, into `destination` (a new file open for
    /// writing); returns how many bytes it copied, or nil, having written nothing, where
    /// the filesystem has no direct I/O (the caller copies another way). The end of the
    /// file past its last whole block is written through the page cache, as is the rest
    /// after any read that returns part of a piece.
    static func copy(from source: Int32, to destination: Int32, path: String, destinationPath: String) throws(SyncError) -> Int64? {
        guard ubq_set_direct_io(destination, 1) == 0 else { return nil }
        let start = lseek(source, 0, SEEK_CUR)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: piece, alignment: block)
        defer { buffer.deallocate() }
        var copied: Int64 = 0
        var direct = true
        while true {
            let count = try Sys.read(source, into: buffer, path: path)
            if count == 0 { return copied }
            let whole = direct ? count / block * block : 0
            if whole > 0 {
                // Refused at the first write (a filesystem that takes the flag, not the I/O):
                // the source goes back to where it was, for the other way to copy it all.
                guard try writeDirect(destination, buffer, count: whole, first: copied == 0, path: destinationPath) else {
                    _ = ubq_set_direct_io(destination, 0)
                    guard start >= 0, lseek(source, start, SEEK_SET) == start else { throw .system("lseek", path) }
                    return nil
                }
            }
            if whole < count {
                if direct {
                    _ = ubq_set_direct_io(destination, 0)
                    direct = false
                }
                try Sys.writeAll(destination, UnsafeRawBufferPointer(rebasing: buffer[whole..<count]), path: destinationPath)
            }
            copied += Int64(count)
        }
    }

    /// Writes the first `count` bytes of `buffer` (whole blocks); false if the first write
    /// of the copy (`first`) is refused with EINVAL.
    private static func writeDirect(
        _ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, count: Int, first: Bool, path: String
    ) throws(SyncError) -> Bool {
        var written = 0
        if first {
            repeat { written = write(fd, buffer.baseAddress, count) } while written < 0 && errno == EINTR
            if written < 0 {
                if errno == EINVAL { return false }
                throw .system("write", path)
            }
        }
        try Sys.writeAll(fd, UnsafeRawBufferPointer(rebasing: buffer[written..<count]), path: path)
        return true
    }
}
