import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whole-file reads and durable, atomic replacements, as syncthing's `lib/osutil/atomic.go`
/// does them: the new content goes to a temporary file in the same folder, is written and
/// `fsync`ed, renamed over the old file, then the folder is `fsync`ed so the rename itself
/// survives a crash. Until the rename the old file is untouched; after it, the new one is
/// complete. A failure removes the temporary file and leaves the old file as it was.
///
/// The temporary file is named `.NAME.XXXXXXXX.tmp` (NAME cut to 100 bytes), a name the
/// daemon's default ignore rules skip (`.*.tmp`).
struct AtomicFile: Sendable {
    /// The system calls that can fail halfway: a seam so tests can fail one deterministically
    /// (a full disk), which root cannot otherwise be made to hit.
    struct System: Sendable {
        var write: @Sendable (Int32, UnsafeRawBufferPointer) -> Int
        var fsync: @Sendable (Int32) -> Int32
        var rename: @Sendable (String, String) -> Int32

        static let live = System(
            write: { descriptor, buffer in Glibc.write(descriptor, buffer.baseAddress, buffer.count) },
            fsync: { Glibc.fsync($0) },
            rename: { Glibc.rename($0, $1) })
    }

    var system: System = .live

    /// What identifies one version of a file on disk: a replacement by rename changes the
    /// inode, an in-place edit the size or modification time.
    struct Signature: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var seconds: Int
        var nanoseconds: Int

        init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
            size = Int64(status.st_size)
            seconds = status.st_mtim.tv_sec
            nanoseconds = status.st_mtim.tv_nsec
        }

        /// The file's modification time.
        var modificationDate: Date {
            Date(timeIntervalSince1970: TimeInterval(seconds) + TimeInterval(nanoseconds) / 1e9)
        }
    }

    /// The whole content of `path` and the signature of the version read.
    static func read(_ path: String) throws(DocumentError) -> (data: Data, signature: Signature) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .syscall("open", errno: errno, path: path, step: "reading") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .syscall("fstat", errno: errno, path: path, step: "reading") }
        var data = Data(capacity: max(0, Int(status.st_size)))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw .syscall("read", errno: errno, path: path, step: "reading") }
            if count == 0 { return (data, Signature(status)) }
            data.append(contentsOf: chunk[..<count])
        }
    }

    /// The signature of what is at `path` now, or nil when nothing is there.
    static func signature(_ path: String) throws(DocumentError) -> Signature? {
        var status = stat()
        if stat(path, &status) == 0 { return Signature(status) }
        if errno == ENOENT { return nil }
        throw .syscall("stat", errno: errno, path: path, step: "checking")
    }

    /// Replaces (or creates) `path` with `data`, atomically and durably. An existing file's
    /// permission bits are kept; a new file gets `0644` (less the umask).
    func replace(_ path: String, with data: Data) throws(DocumentError) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let temporary = folder + "/" + Self.temporaryName(for: url.lastPathComponent)
        var existing = stat()
        let existed = stat(path, &existing) == 0
        let mode = existed ? existing.st_mode & 0o7777 : 0o644
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw .syscall("open", errno: errno, path: path, step: "saving (temporary file)") }
        do throws(DocumentError) {
            defer { close(descriptor) }
            if existed { _ = fchmod(descriptor, mode) }  // the umask must not narrow a kept mode
            try writeAll(data, to: descriptor, path: path)
            guard system.fsync(descriptor) == 0 else { throw .syscall("fsync", errno: errno, path: path, step: "saving") }
        } catch {
            unlink(temporary)
            throw error
        }
        guard system.rename(temporary, path) == 0 else {
            let failure = errno
            unlink(temporary)
            throw .syscall("rename", errno: failure, path: path, step: "saving")
        }
        try Self.syncFolder(folder, path: path)
    }

    private func writeAll(_ data: Data, to descriptor: Int32, path: String) throws(DocumentError) {
        var offset = 0
        while offset < data.count {
            let count = data.withUnsafeBytes { bytes in
                system.write(descriptor, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                throw .syscall("write", errno: count == 0 ? EIO : errno, path: path, step: "saving")
            }
            offset += count
        }
    }

    /// Makes the rename durable. The new file is complete either way, so a folder that
    /// cannot be opened for reading is reported, not worked around.
    private static func syncFolder(_ folder: String, path: String) throws(DocumentError) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .syscall("open", errno: errno, path: path, step: "syncing the folder of") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 || errno == EINVAL else {
            throw .syscall("fsync", errno: errno, path: path, step: "syncing the folder of")
        }
    }

    /// `.NAME.XXXXXXXX.tmp`, with NAME cut to at most 100 bytes (at a character boundary) so
    /// a name near the 255-byte limit still leaves room.
    static func temporaryName(for name: String) -> String {
        var stem = ""
        for character in name {
            guard stem.utf8.count + String(character).utf8.count <= 100 else { break }
            stem.append(character)
        }
        let random = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        return "." + stem + "." + String(repeating: "0", count: 8 - random.count) + random + ".tmp"
    }
}
