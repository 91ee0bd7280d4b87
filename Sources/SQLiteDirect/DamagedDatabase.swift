import Foundation
import GRDB

/// A database file SQLite cannot read as one: not a database at all, or corrupt (a disk
/// fault, a copy cut short, a file written over). The daemon must not refuse to start for
/// it: the file is set aside, kept for a post-mortem, and a new one made in its place.
public enum DamagedDatabase {
    /// Whether `error`, met opening a database, says its file is damaged.
    public static func isDamage(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT
    }

    /// Renames `path`, and its `-wal` and `-shm` files when there are some, to
    /// `path.damaged-YYYYMMDDTHHMMSSZ` (and that with `-wal`, `-shm`); returns the new name.
    public static func setAside(_ path: String, at date: Date = Date()) throws(SetAsideError) -> String {
        let stamp = String(date.formatted(.iso8601).filter { !"-:".contains($0) })
        let aside = "\(path).damaged-\(stamp)"
        for suffix in ["", "-wal", "-shm"] where access(path + suffix, F_OK) == 0 {
            guard rename(path + suffix, aside + suffix) == 0 else {
                throw SetAsideError(description: "cannot move \(path + suffix) aside to \(aside + suffix): \(String(cString: strerror(errno)))")
            }
        }
        return aside
    }

    public struct SetAsideError: Error, CustomStringConvertible {
        public var description: String
    }
}
