import Foundation
import Glibc

/// A small tmpfs mounted for a test, to fill to its last block: a full disk without
/// filling the machine's. Mounting needs root (as in CI); tests that need one are enabled
/// only where `canMount`.
public enum SmallDisk {
    public static let canMount: Bool = {
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-mount-probe-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)
        defer { rmdir(probe) }
        guard Glibc.mount("tmpfs", probe, "tmpfs", 0, "size=64k") == 0 else { return false }
        umount(probe)
        return true
    }()

    /// Mounts a tmpfs of `size` (as mount(8) writes it: "8m") on the folder `path`, made if
    /// need be; `unmount(_:)` takes it away.
    public static func mount(at path: String, size: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard Glibc.mount("tmpfs", path, "tmpfs", 0, "size=\(size)") == 0 else {
            throw SmallDiskError(message: "mount tmpfs on \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Makes the folder `path` read-only in place (a read-only bind mount of itself, as a
    /// disk mounted `ro` is); `unmount(_:)` makes it writable again.
    public static func makeReadOnly(_ path: String) throws {
        guard Glibc.mount(path, path, nil, UInt(MS_BIND), nil) == 0,
            Glibc.mount(nil, path, nil, UInt(MS_REMOUNT | MS_BIND | MS_RDONLY), nil) == 0
        else {
            throw SmallDiskError(message: "read-only bind mount of \(path): \(String(cString: strerror(errno)))")
        }
    }

    public static func unmount(_ path: String) {
        umount2(path, Int32(MNT_DETACH))
    }

    /// Takes every free block of the filesystem holding `folder` but `leaving` bytes, in
    /// files named `filler-*` there: large pieces first, then single pages.
    public static func fill(_ folder: String, leaving: Int = 0) {
        for (index, piece) in [64 << 10, 4 << 10].enumerated() {
            let fd = open("\(folder)/filler-\(index)", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            guard fd >= 0 else { continue }
            let zeros = [UInt8](repeating: 0, count: piece)
            while write(fd, zeros, piece) == piece {}
            close(fd)
        }
        var info = stat()
        if leaving > 0, stat("\(folder)/filler-0", &info) == 0 {
            truncate("\(folder)/filler-0", max(info.st_size - off_t(leaving), 0))
        }
    }

    /// Frees what `fill(_:)` took.
    public static func empty(_ folder: String) {
        for index in 0..<2 { unlink("\(folder)/filler-\(index)") }
    }
}

public struct SmallDiskError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
