#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The lock files held by the claims whose accessors enclose the running code: this task's
/// (a task-local value, inherited by child tasks) or, outside any task, this thread's.
///
/// A claim made inside an accessor does not queue behind a waiting writer (the turnstile,
/// see `LockFile`) for a lock file that an enclosing claim already holds: that writer
/// cannot go before the enclosing claim ends, and the enclosing claim waits for this one,
/// so queueing would deadlock. This is what makes a read nested in a read of the same item,
/// or of a folder above it, safe, as `NSFileCoordinator` allows. Claims of other tasks and
/// threads still queue, so a waiting writer is not starved by them.
enum EnclosingClaims {
    @TaskLocal static var held: Set<HeldLockFile> = []
}

/// One lock file, named by its folder's identity (so two spellings of one lock directory,
/// or two coordinators on it, agree) and its name.
struct HeldLockFile: Hashable, Sendable {
    let folderDevice: UInt64
    let folderInode: UInt64
    let name: LockName

    /// The identity of the lock directory open at `directory`; nil if it cannot be read.
    static func folderIdentity(_ directory: Int32) -> (device: UInt64, inode: UInt64)? {
        guard let info = try? Sys.fstat(directory) else { return nil }
        return (UInt64(info.st_dev), UInt64(info.st_ino))
    }
}
