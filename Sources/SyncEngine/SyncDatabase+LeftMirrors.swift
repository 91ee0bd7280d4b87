import Foundation
import GRDB

/// The mirror the base is synced with, and the bases of the mirrors this device left.
///
/// A base holds for one mirror: what this device and that mirror last agreed on. A device
/// that leaves a mirror (set to another folder, or another disk mounted where it was) keeps
/// its base with it there, and takes it up again if it comes back: the changes it made
/// meanwhile are then edits and deletions of what it had there, as they would have been had
/// it stayed (Unison keeps an archive per pair of replicas for the same reason). Without
/// it, a device back from a second disk started over as a new device: each file it had
/// edited meanwhile became a conflict with its own older version, and each it had deleted
/// came back.
extension SyncDatabase {
    /// The mirrors left whose bases are kept, the most recently left first: enough for a
    /// device that goes between a few disks, no more (each is a copy of the base).
    static let leftMirrorsKept = 4

    /// Records `mirror` as the one the base is synced with, in one transaction.
    /// `forgettingBase`: the base was synced with another mirror; it is kept under that
    /// mirror's id (if it has one) and dropped. A base kept for `mirror` is taken up again
    /// when this device has none now. Returns when this device left `mirror`, if its base
    /// was taken up.
    ///
    /// A base recorded as synced with `mirror` already is never dropped, whatever the caller
    /// believed: one taken up by a call whose caller then failed before it learnt so.
    @discardableResult
    func remember(_ mirror: MirrorIdentity, forgettingBase: Bool) throws -> Date? {
        try queue.write { db in
            let leaving = try String?.fetchOne(db, sql: "SELECT id FROM mirror") ?? nil
            if forgettingBase, leaving == nil || leaving != mirror.id {
                if let leaving { try Self.keepBase(db, of: leaving) }
                try db.execute(sql: "DELETE FROM base")
            }
            let left = try mirror.id.flatMap { id in try Self.takeUpBase(db, of: id) }
            try db.execute(sql: "DELETE FROM mirror")
            try db.execute(sql: "INSERT INTO mirror (path, id) VALUES (?, ?)", arguments: [mirror.path, mirror.id])
            return left
        }
    }

    /// The ids of the mirrors whose bases are kept, the most recently left first.
    func leftMirrors() throws -> [String] {
        try queue.read { db in try String.fetchAll(db, sql: "SELECT id FROM left_mirror ORDER BY rowid DESC") }
    }

    private static let baseColumns = "container, path, version, kind, sha256, size, mode, target, inode, mtime_ns, ctime_ns"

    /// Keeps the base under the id of the mirror being left, replacing what was kept for it
    /// before, and forgets the bases of the mirrors left longest ago past `leftMirrorsKept`.
    /// An empty base is not kept: there is nothing to carry on from.
    private static func keepBase(_ db: Database, of mirror: String) throws {
        try forgetBase(db, of: mirror)
        guard try hasBase(db) else { return }
        try db.execute(
            sql: "INSERT INTO left_base (mirror, \(baseColumns)) SELECT ?, \(baseColumns) FROM base", arguments: [mirror])
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        try db.execute(sql: "INSERT INTO left_mirror (id, left) VALUES (?, ?)", arguments: [mirror, now])
        // By rowid: the order they were left in, even within one millisecond.
        let stale = try String.fetchAll(
            db, sql: "SELECT id FROM left_mirror ORDER BY rowid DESC LIMIT -1 OFFSET ?", arguments: [leftMirrorsKept])
        for id in stale { try forgetBase(db, of: id) }
    }

    /// Puts back the base kept for `mirror`, if this device has no base now (a device that
    /// has one kept it with a mirror it could not tell from this one: it is not replaced).
    /// Returns when the device left that mirror.
    private static func takeUpBase(_ db: Database, of mirror: String) throws -> Date? {
        guard let left = try Int64.fetchOne(db, sql: "SELECT left FROM left_mirror WHERE id = ?", arguments: [mirror]) else { return nil }
        guard try !hasBase(db) else { return nil }
        try db.execute(
            sql: "INSERT INTO base (\(baseColumns)) SELECT \(baseColumns) FROM left_base WHERE mirror = ?", arguments: [mirror])
        try forgetBase(db, of: mirror)
        return Date(timeIntervalSince1970: Double(left) / 1000)
    }

    private static func hasBase(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM base)") ?? false
    }

    private static func forgetBase(_ db: Database, of mirror: String) throws {
        try db.execute(sql: "DELETE FROM left_base WHERE mirror = ?", arguments: [mirror])
        try db.execute(sql: "DELETE FROM left_mirror WHERE id = ?", arguments: [mirror])
    }
}
