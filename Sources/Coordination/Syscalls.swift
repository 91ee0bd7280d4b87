#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An `errno` value, thrown by the syscall seam.
struct Errno: Error, Equatable, Sendable, CustomStringConvertible {
    let rawValue: Int32

    static var current: Errno { Errno(rawValue: errno) }

    var description: String { String(cString: strerror(rawValue)) }

    /// The lock is held by someone else (`F_OFD_SETLK` answers either).
    var isContended: Bool { rawValue == EAGAIN || rawValue == EACCES }
}

/// `fcntl` commands for open-file-description locks. Glibc declares them only with
/// `_GNU_SOURCE`, so Swift does not see them.
enum OFDCommand {
    static let getLock: Int32 = 36
    static let setLock: Int32 = 37
    static let setLockWait: Int32 = 38
}

/// The one seam through which this module makes system calls: a `-1` becomes a thrown
/// `Errno`, and `EINTR` is retried (modelled on swift-system's `Syscalls.swift`).
enum Sys {
    @inline(__always)
    static func retryingEINTR<T: FixedWidthInteger>(_ call: () -> T) throws(Errno) -> T {
        while true {
            let result = call()
            if result != -1 { return result }
            let error = Errno.current
            if error.rawValue != EINTR { throw error }
        }
    }

    static func openat(_ dirfd: Int32, _ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) throws(Errno) -> Int32 {
        try retryingEINTR { Glibc.openat(dirfd, path, flags, mode) }
    }

    static func open(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) throws(Errno) -> Int32 {
        try retryingEINTR { Glibc.open(path, flags, mode) }
    }

    /// `close` is never retried: on Linux the descriptor is gone even after `EINTR`.
    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    static func mkdir(_ path: UnsafePointer<CChar>, _ mode: mode_t) throws(Errno) {
        _ = try retryingEINTR { Glibc.mkdir(path, mode) }
    }

    /// One `fcntl` lock command (`F_OFD_SETLK`, `F_OFD_GETLK`) on `[start, start + length)`.
    static func lock(_ fd: Int32, _ command: Int32, type: Int32, start: Int, length: Int) throws(Errno) -> flock {
        var description = flock()
        description.l_type = Int16(type)
        description.l_whence = Int16(SEEK_SET)
        description.l_start = off_t(start)
        description.l_len = off_t(length)
        description.l_pid = 0
        _ = try retryingEINTR { fcntl(fd, command, &description) }
        return description
    }

    static func pwrite(_ fd: Int32, _ bytes: [UInt8], at offset: Int) throws(Errno) -> Int {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(Errno) in
                try retryingEINTR { Glibc.pwrite(fd, buffer.baseAddress, buffer.count, off_t(offset)) }
            }
        }.get()
    }

    /// Reads up to `buffer.count` bytes at `offset` into `buffer`; returns how many.
    static func pread(_ fd: Int32, _ buffer: inout [UInt8], at offset: Int) throws(Errno) -> Int {
        try buffer.withUnsafeMutableBytes { raw in
            Result { () throws(Errno) in
                try retryingEINTR { Glibc.pread(fd, raw.baseAddress, raw.count, off_t(offset)) }
            }
        }.get()
    }

    static func fstat(_ fd: Int32) throws(Errno) -> stat {
        var info = stat()
        _ = try retryingEINTR { Glibc.fstat(fd, &info) }
        return info
    }

    /// The status of `name` in the folder `dirfd`, not following a final symlink.
    static func fstatat(_ dirfd: Int32, _ name: UnsafePointer<CChar>) throws(Errno) -> stat {
        var info = stat()
        _ = try retryingEINTR { Glibc.fstatat(dirfd, name, &info, AT_SYMLINK_NOFOLLOW) }
        return info
    }

    static func unlinkat(_ dirfd: Int32, _ name: UnsafePointer<CChar>) throws(Errno) {
        _ = try retryingEINTR { Glibc.unlinkat(dirfd, name, 0) }
    }

    /// Whether anything (even a dangling symbolic link) exists at `path`.
    static func exists(_ path: UnsafePointer<CChar>) throws(Errno) -> Bool {
        var info = stat()
        do {
            _ = try retryingEINTR { lstat(path, &info) }
            return true
        } catch {
            if error.rawValue == ENOENT || error.rawValue == ENOTDIR { return false }
            throw error
        }
    }

    /// `realpath(3)` as raw bytes.
    static func realpath(_ path: UnsafePointer<CChar>) throws(Errno) -> [UInt8] {
        while true {
            if let resolved = Glibc.realpath(path, nil) {
                defer { free(resolved) }
                return Array(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
            }
            let error = Errno.current
            if error.rawValue != EINTR { throw error }
        }
    }

    static func getcwd() throws(Errno) -> [UInt8] {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard Glibc.getcwd(&buffer, buffer.count) != nil else { throw Errno.current }
        return buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    }

    /// Sleeps for `nanoseconds`; an interrupted sleep just returns early.
    static func sleep(nanoseconds: Int) {
        var request = timespec(tv_sec: nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
        _ = nanosleep(&request, nil)
    }

    static func clockNanoseconds(_ clock: clockid_t) -> Int64 {
        var now = timespec()
        clock_gettime(clock, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}

extension Array where Element == UInt8 {
    /// Calls `body` with the bytes as a NUL-terminated C string.
    func withCString<R, E: Error>(_ body: (UnsafePointer<CChar>) throws(E) -> R) throws(E) -> R {
        var terminated = self
        terminated.append(0)
        let result: Result<R, E> = terminated.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { pointer in
                Result { () throws(E) in try body(pointer) }
            }
        }
        return try result.get()
    }
}
