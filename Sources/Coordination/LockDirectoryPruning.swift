import CivilCalendar
import Foundation

/// Deleting lock files that nobody uses, so the lock directory (tmpfs memory) does not keep
/// one file for every path ever coordinated.
///
/// A lock file is deleted only by a process that holds it exclusively, and only if nobody
/// wrote to it (a holder record, a move record) for a while. A process that had the file open
/// before and locks it afterwards sees that it was unlinked (`st_nlink == 0`) and opens the
/// name again (see `Claim`), so deletion never lets two incompatible claims in at once.
extension FileCoordinator {
    /// Deletes every lock file that no claim holds and that was not written for `age`;
    /// returns how many it deleted. The daemon calls it now and then; any process may.
    @discardableResult
    public func pruneLockFiles(unusedFor age: Duration = .seconds(600)) throws(CoordinationError) -> Int {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: lockDirectory.path)
        } catch {
            throw CoordinationError(
                code: .systemCallFailed, message: "cannot list the lock directory \(lockDirectory.path): \(error)",
                path: lockDirectory.path, syscall: "opendir")
        }
        let ageNanoseconds = age.components.seconds * 1_000_000_000 + age.components.attoseconds / 1_000_000_000
        let cutoff = Sys.clockNanoseconds(CLOCK_REALTIME) - ageNanoseconds
        var deleted = 0
        let directory = try lockDirectoryDescriptor
        for name in names where LockName.isFileName(name) {
            do {
                if try LockFile.deleteIfIdle(directory: directory, name: name, writtenBefore: cutoff) {
                    deleted += 1
                }
            } catch {
                throw .syscall("unlinkat", error, path: lockDirectory.path + "/" + name, detail: "an idle lock file")
            }
        }
        return deleted
    }
}

extension LockName {
    /// Whether `name` is the name of a lock file: 32 lowercase hex digits and `.lock`.
    static func isFileName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count == 37, name.hasSuffix(".lock") else { return false }
        return bytes.prefix(32).allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
            || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }
}

extension LockFile {
    /// Deletes the lock file `name` if it was last written before `cutoff` (wall-clock
    /// nanoseconds) and nobody holds any lock on it; `true` if it did.
    static func deleteIfIdle(directory: Int32, name: String, writtenBefore cutoff: Int64) throws(Errno) -> Bool {
        let fd: Int32
        do { fd = try Sys.openat(directory, name, O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0) } catch {
            if error.rawValue == ENOENT { return false }
            throw error
        }
        defer { Sys.close(fd) }  // closing drops our exclusive lock
        return try deleteIfIdle(opened: fd, directory: directory, name: name, writtenBefore: cutoff)
    }

    /// `deleteIfIdle` of the file open at `fd`, opened by `name` some time ago.
    static func deleteIfIdle(opened fd: Int32, directory: Int32, name: String, writtenBefore cutoff: Int64) throws(Errno) -> Bool {
        let info = try Sys.fstat(fd)
        let written = FileTime.nanoseconds(seconds: Int64(info.st_mtim.tv_sec), nanoseconds: Int64(info.st_mtim.tv_nsec))
        guard written < cutoff else { return false }
        do {
            _ = try Sys.lock(fd, OFDCommand.setLock, type: F_WRLCK, start: 0, length: turnstile + 1)
        } catch where error.isContended {
            return false
        }
        // Another pruner may have unlinked this file after we opened it, and a claim made
        // a new one under the name since: the name is unlinked only if it is still this
        // file. (Only the holder of this exclusive lock unlinks it, so it cannot change
        // between the check and the unlink.)
        guard let named = try? Sys.fstatat(directory, name), named.st_dev == info.st_dev, named.st_ino == info.st_ino else {
            return false
        }
        try Sys.unlinkat(directory, name)
        return true
    }
}
