import Glibc

/// A sync step that failed, naming what it was doing, the path and the cause. A user reads
/// it in `ubq status` and the journal and knows what to do.
public struct SyncError: Error, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// A system call failed (`errno`).
        case system(Int32)
        /// The mirror is missing, unmounted or not a mirror: sync pauses, nothing is deleted.
        case mirrorUnavailable
        /// A log line or an object in the mirror is not what the format says.
        case corruptMirror
        /// The disk changed between planning and committing: the step is retried next pass.
        case changedMeanwhile
        /// A container, path or version the caller named does not exist.
        case unknownItem
        /// This device's own log changed behind its back (`LogWriter`): another machine
        /// writes it under the same device id. Sync of the container stops until a restart.
        case ownLogChanged
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `operation path: strerror(errno)`, read from the current `errno`.
    public static func system(_ operation: String, _ path: String, errno: Int32 = Glibc.errno) -> SyncError {
        SyncError(.system(errno), "\(operation) \(path): \(String(cString: strerror(errno)))")
    }

    /// A log line whose `size` is not its content's: the line is wrong, not the object
    /// (which hashes to its name, or is checked next), so nothing is set aside.
    static func sizeMismatch(_ object: String, holds actual: Int64, claimed: Int64) -> SyncError {
        SyncError(
            .corruptMirror,
            "the log line says \(claimed) bytes, but its content \(object) holds \(actual); the line is wrong, so this version is not "
                + "installed here (the file stays as it was) until a line gives its size right")
    }

    /// A store object whose bytes do not hash to its name (`got`, when known), and what
    /// became of it (`detail`, `DamagedObjects`).
    static func damagedObject(_ object: String, got sha256: String? = nil, detail: String = "") -> SyncError {
        SyncError(.corruptMirror, "\(object) does not hash to its name\(sha256.map { " (got \($0))" } ?? ""); the mirror's copy is damaged\(detail)")
    }

    /// A full disk or quota: the pass pauses and retries later.
    public var isOutOfSpace: Bool { code == .system(ENOSPC) || code == .system(EDQUOT) }

    /// A name or a path longer than Linux takes (NAME_MAX, 255 bytes; PATH_MAX, 4096
    /// bytes with the folders above the container): not a passing failure, so no reason
    /// to look at everything again.
    var isPathTooLong: Bool { code == .system(ENAMETOOLONG) }

    /// What to do about `isPathTooLong` for the item at `path`: a name of more than 255
    /// bytes (90 CJK characters, which a Mac takes) is to be shortened itself.
    static func pathTooLongHint(for path: String) -> String {
        if let long = path.split(separator: "/").first(where: { $0.utf8.count > Int(NAME_MAX) }) {
            return "the name \"\(long.prefix(24))…\" is \(long.utf8.count) bytes, longer than Linux takes (255): shorten it, and it syncs"
        }
        return "its path is longer than Linux takes (4096 bytes, counting the folders above the container): shorten a folder's name on the way, and it syncs"
    }

    public var description: String { message }
}
