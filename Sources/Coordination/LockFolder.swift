import Foundation
import Synchronization

/// The open lock directory of a coordinator, made again if it was removed (`rm -rf` of
/// the runtime folder, a cleaner of `/run/user`). Through a descriptor of a removed folder,
/// no lock file can be made, and a missing one reads as "nobody holds a claim here":
/// writes would fail and reads would go unlocked while other processes lock in the new
/// folder. A descriptor it replaces stays open until the coordinator goes (a claim may
/// still use it; it then fails with a clear error rather than skip a lock).
final class LockFolder: Sendable {
    let path: String
    private let state: Mutex<(current: Int32, retired: [Int32])>

    init(path: String) throws(CoordinationError) {
        self.path = path
        state = Mutex((try Self.open(path), []))
    }

    deinit {
        state.withLock { state in
            Sys.close(state.current)
            state.retired.forEach(Sys.close)
        }
    }

    /// The folder's descriptor, reopened first if the folder was removed.
    func descriptor() throws(CoordinationError) -> Int32 {
        let current = state.withLock { $0.current }
        guard Self.isRemoved(current) else { return current }
        let fresh = try Self.open(path)
        return state.withLock { state in
            guard state.current == current else {  // another thread reopened it meanwhile
                Sys.close(fresh)
                return state.current
            }
            state.retired.append(current)
            state.current = fresh
            return fresh
        }
    }

    /// Whether the folder open at `fd` is no longer linked anywhere (removed).
    static func isRemoved(_ fd: Int32) -> Bool {
        (try? Sys.fstat(fd).st_nlink == 0) ?? false
    }

    /// Creates the directory (mode 0700) if needed and opens it.
    private static func open(_ path: String) throws(CoordinationError) -> Int32 {
        do {
            try FileManager.default.createDirectory(
                at: URL(fileURLWithPath: path), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CoordinationError(
                code: .systemCallFailed, message: "cannot create the lock directory \(path): \(error.localizedDescription)",
                path: path, syscall: "mkdir")
        }
        try requirePrivate(path)
        try requirePrivate((path as NSString).deletingLastPathComponent)
        do {
            return try Sys.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW, 0)
        } catch {
            throw .syscall("open", error, path: path, detail: "the lock directory")
        }
    }

    /// Locks in a folder another user owns or may write to are theirs to break: they can
    /// hold a lock nobody else gets past, or delete held lock files (the `/tmp` fallback of
    /// a session without XDG_RUNTIME_DIR is where they could prepare one). Group write is
    /// allowed: with a umask of 002, folders are made so, and the group is the user's own.
    private static func requirePrivate(_ folder: String) throws(CoordinationError) {
        var info = stat()
        guard lstat(folder, &info) == 0 else { throw .syscall("lstat", .current, path: folder, detail: "the lock directory") }
        guard info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid(), info.st_mode & 0o002 == 0 else {
            throw CoordinationError(
                code: .untrustedLockDirectory,
                message: "\(folder) is not a folder of yours that others may not write to (owner uid \(info.st_uid), mode \(String(info.st_mode & 0o7777, radix: 8))): another user could hold or break the locks in it. Remove it, or set XDG_RUNTIME_DIR or UBQ_RUNTIME_DIR to a private folder.",
                path: folder, syscall: "lstat")
        }
    }
}
