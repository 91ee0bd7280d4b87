import CStatx
import Crypto
import Glibc
import RawPaths

/// Reads a file once, hashing it with SHA-256 and, when asked, writing it elsewhere at the
/// same time: one pass over the bytes for both the upload and its name.
enum ContentHashing {
    static let chunkSize = 1 << 20

    struct Result: Equatable {
        var sha256: String
        var size: Int64
    }

    /// Hashes the regular file at `path` (not following a final symlink). With
    /// `refusingWriters`, throws `changedMeanwhile` instead if some process still has the
    /// file open for writing (what it holds so far is not the file: `LocalTree.writerWindow`).
    static func hash(path: String, refusingWriters: Bool) throws(SyncError) -> Result {
        let fd = try Sys.open(path, O_RDONLY | O_NOFOLLOW)
        defer { close(fd) }
        return try hash(fd, path: path, refusingWriters: refusingWriters)
    }

    /// `hash(path:refusingWriters:)` of the file `relative` below `folders.root`, opened
    /// through no symlink. O_NONBLOCK: a FIFO put in its place since its status was read
    /// must not hang the pass.
    ///
    /// With `staging`, what is read is also written to that new file (not synced; removed
    /// again if the hash fails). `expectedSize`: the size its status gave, if known.
    static func hash(
        _ relative: RawPath, through folders: FolderCursor, refusingWriters: Bool, copyingTo staging: String? = nil, expectedSize: Int64? = nil
    ) throws(SyncError) -> Result {
        let fd = try folders.open(relative, O_RDONLY | O_NONBLOCK, forReading: true)
        defer { close(fd) }
        let path = folders.root.appending(relative).readable
        guard let staging else { return try hash(fd, path: path, refusingWriters: refusingWriters, expectedSize: expectedSize) }
        try refuseWriter(fd, path: path, refusingWriters: refusingWriters)
        return try DurableFile.write(staging, mode: 0o444, sync: false, makingFolder: true) { destination throws(SyncError) in
            try stream(from: fd, path: path, to: destination, destinationPath: staging, expectedSize: expectedSize)
        }
    }

    private static func hash(_ fd: Int32, path: String, refusingWriters: Bool, expectedSize: Int64? = nil) throws(SyncError) -> Result {
        try refuseWriter(fd, path: path, refusingWriters: refusingWriters)
        return try stream(from: fd, path: path, to: nil, destinationPath: "", expectedSize: expectedSize)
    }

    private static func refuseWriter(_ fd: Int32, path: String, refusingWriters: Bool) throws(SyncError) {
        if refusingWriters && ubq_fd_has_writer(fd) == 1 {
            throw SyncError(.changedMeanwhile, "\(path) is still open for writing; it is uploaded once closed")
        }
    }

    /// Copies `source` to `destination` (both open), hashing what went through; where the
    /// source has holes, the copy keeps them (`SparseFiles`).
    /// `expectedSize`: the size the caller knows the source to have (else it is asked),
    /// to size the buffer; the source is read to its end whatever it is.
    static func stream(
        from source: Int32, path: String, to destination: Int32?, destinationPath: String, expectedSize: Int64? = nil
    ) throws(SyncError) -> Result {
        var hasher = SHA256()
        var size: Int64 = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize(expectedSize ?? fileSize(source)), alignment: 16)
        defer { buffer.deallocate() }
        // A file of one block has no hole to keep: a first sync's many small files are
        // spared the fstat.
        let sparse = destination != nil && (expectedSize ?? .max) > SparseFiles.block && SparseFiles.hasHoles(source)
        while true {
            let count = try Sys.read(source, into: buffer, path: path)
            if count == 0 { break }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[..<count])
            hasher.update(bufferPointer: chunk)
            if let destination {
                if sparse {
                    try SparseFiles.write(destination, chunk, at: size, path: destinationPath)
                } else {
                    try Sys.writeAll(destination, chunk, path: destinationPath)
                }
            }
            size += Int64(count)
        }
        if sparse, let destination { try SparseFiles.finish(destination, size: size, path: destinationPath) }
        return Result(sha256: hex(hasher.finalize()), size: size)
    }

    /// A buffer for reading a file of `fileSize`: the whole file and one byte more (so the
    /// second read finds the end) when it is smaller than `chunkSize`. Glibc served a
    /// `chunkSize` buffer for each small file with pages handed back to the kernel when it
    /// was freed (in a first sync of 100,000 files of 300 bytes, perf on tmpfs: munmap in
    /// 130 samples of the pass thread's 7,800, 25 with this).
    private static func bufferSize(_ fileSize: Int64?) -> Int {
        guard let fileSize, fileSize < chunkSize else { return chunkSize }
        let page = 4096
        return (Int(fileSize) + 1 + page - 1) / page * page
    }

    /// The size of `source` if it is a regular file.
    private static func fileSize(_ source: Int32) -> Int64? {
        var info = stat()
        guard fstat(source, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    static func hex(_ digest: SHA256.Digest) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
