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

    /// `hash(path:refusingWriters:)` of the file `relative` below `folder`, opened through
    /// no symlink (`ubq_open_beneath`). O_NONBLOCK: a FIFO put in its place since its status
    /// was read must not hang the pass.
    static func hash(_ relative: RawPath, beneath folder: RawPath, refusingWriters: Bool) throws(SyncError) -> Result {
        let path = folder.appending(relative).readable
        let fd = folder.withCString { root in relative.withCString { ubq_open_beneath(root, $0, O_RDONLY | O_NONBLOCK) } }
        guard fd >= 0 else { throw .system("open", path) }
        defer { close(fd) }
        return try hash(fd, path: path, refusingWriters: refusingWriters)
    }

    private static func hash(_ fd: Int32, path: String, refusingWriters: Bool) throws(SyncError) -> Result {
        if refusingWriters && ubq_fd_has_writer(fd) == 1 {
            throw SyncError(.changedMeanwhile, "\(path) is still open for writing; it is uploaded once closed")
        }
        return try stream(from: fd, path: path, to: nil, destinationPath: "")
    }

    /// Copies `source` to `destination` (both open), hashing what went through.
    static func stream(from source: Int32, path: String, to destination: Int32?, destinationPath: String) throws(SyncError) -> Result {
        var hasher = SHA256()
        var size: Int64 = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try Sys.read(source, into: buffer, path: path)
            if count == 0 { break }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[..<count])
            hasher.update(bufferPointer: chunk)
            if let destination { try Sys.writeAll(destination, chunk, path: destinationPath) }
            size += Int64(count)
        }
        return Result(sha256: hex(hasher.finalize()), size: size)
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
