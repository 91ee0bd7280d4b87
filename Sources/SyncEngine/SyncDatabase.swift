import Foundation
import GRDB
import SQLiteDirect
import SyncPlanning

/// This device's sync state (`sync.sqlite` in the state folder): its identity, the base
/// tree of every container, and the journal of what each pass did. Unlike the metadata
/// index this is not derived data: it is written with full durability, and each base
/// change is committed in the same transaction as its journal entry.
public final class SyncDatabase: Sendable {
    let queue: DatabaseQueue

    public init(path: String) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        queue = try DatabaseQueue(path: path, configuration: configuration)
        try Self.migrator.migrate(queue)
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE device (id TEXT NOT NULL, name TEXT NOT NULL);
                CREATE TABLE base (
                    container TEXT NOT NULL, path TEXT NOT NULL, version TEXT NOT NULL,
                    kind TEXT, sha256 TEXT, size INTEGER, mode INTEGER, target TEXT,
                    inode INTEGER, mtime_ns INTEGER, ctime_ns INTEGER,
                    PRIMARY KEY (container, path)) WITHOUT ROWID;
                CREATE TABLE journal (
                    id INTEGER PRIMARY KEY, time INTEGER NOT NULL, container TEXT NOT NULL,
                    path TEXT NOT NULL, action TEXT NOT NULL, version TEXT NOT NULL);
                """)
        }
        migrator.registerMigration("v2: lifted folders") { db in
            // Folders whose mode a pass lifted for a moment (`FolderLift`): the mode to put
            // back, and the modes the pass gave them meanwhile (`LiftedFolder`).
            try db.execute(sql: """
                CREATE TABLE lifted_folder (
                    path BLOB PRIMARY KEY NOT NULL, mode INTEGER NOT NULL, given INTEGER NOT NULL, earlier INTEGER) WITHOUT ROWID
                """)
        }
        migrator.registerMigration("v3: mirror identity") { db in
            // The mirror the base was synced with (`MirrorIdentity`): one row, or none
            // before the first pass that found the mirror usable.
            try db.execute(sql: "CREATE TABLE mirror (path TEXT NOT NULL, id TEXT)")
        }
        migrator.registerMigration("v4: bases of mirrors left") { db in
            // The base this device had with each mirror it left (`SyncDatabase+LeftMirrors`):
            // taken up again if it comes back to that mirror.
            try db.execute(sql: """
                CREATE TABLE left_mirror (id TEXT PRIMARY KEY NOT NULL, left INTEGER NOT NULL);
                CREATE TABLE left_base (
                    mirror TEXT NOT NULL, container TEXT NOT NULL, path TEXT NOT NULL, version TEXT NOT NULL,
                    kind TEXT, sha256 TEXT, size INTEGER, mode INTEGER, target TEXT,
                    inode INTEGER, mtime_ns INTEGER, ctime_ns INTEGER,
                    PRIMARY KEY (mirror, container, path)) WITHOUT ROWID;
                """)
        }
        return migrator
    }

    /// The mirror the base was synced with, if known.
    func knownMirror() throws -> MirrorIdentity? {
        try queue.read { db in
            try Row.fetchOne(db, sql: "SELECT path, id FROM mirror").map { MirrorIdentity(path: $0["path"], id: $0["id"]) }
        }
    }

    /// This device's id and name, made the first time (DESIGN: a stable device id). The
    /// name is `name` when given (the user named the device), else the one kept, else
    /// `defaultName`; the id never changes.
    public func deviceIdentity(name: String? = nil, defaultName: String) throws -> (id: String, name: String) {
        try queue.write { db in
            if let row = try Row.fetchOne(db, sql: "SELECT id, name FROM device") {
                let id: String = row["id"]
                guard let name, name != row["name"] else { return (id, row["name"]) }
                try db.execute(sql: "UPDATE device SET name = ?", arguments: [name])
                return (id, name)
            }
            let id = String(format: "%016llx", UInt64.random(in: 1...UInt64.max))
            try db.execute(sql: "INSERT INTO device(id, name) VALUES (?, ?)", arguments: [id, name ?? defaultName])
            return (id, name ?? defaultName)
        }
    }

    /// The base tree of `container`, or only its entries at or below `roots`, with the
    /// local signature each entry was recorded with.
    func base(container: String, under roots: [String]? = nil) throws -> [String: BaseRow] {
        try queue.read { db in
            var base: [String: BaseRow] = [:]
            // Cached: a pass over a burst of changes looks up thousands of roots, and
            // preparing the statement anew each time cost more than the lookups.
            func collect(_ sql: String, _ arguments: StatementArguments) throws {
                let statement = try db.cachedStatement(sql: "SELECT \(BaseRow.selection) FROM base WHERE container = ? " + sql)
                let rows = try Row.fetchCursor(statement, arguments: [container] + arguments)
                while let row = try rows.next() {
                    if let entry = BaseRow(row) { base[entry.path] = entry }
                }
            }
            guard let roots else {
                try collect("", [])
                return base
            }
            let subtrees = Subtrees(roots)
            let heads = subtrees.topmost  // a subtree named twice is read once
            if heads.count >= Self.fewestRootsToReadWhole,
                try Self.hasFewerRows(than: heads.count * Self.rowsReadPerLookup, db, container: container)
            {
                try collect("", [])
                return base.filter { subtrees.contains($0.key) }
            }
            for root in heads {  // each an index lookup: the entry, then the range below it
                try collect("AND path = ?", [root])
                try collect("AND path > ? AND path < ?", [root + "/", root + "0"])
            }
            return base
        }
    }

    /// Which of `paths` the base of `container` holds as folders: one index lookup each.
    func heldFolders(container: String, among paths: [String]) throws -> Set<String> {
        try queue.read { db in
            let statement = try db.cachedStatement(sql: "SELECT \(BaseRow.selection) FROM base WHERE container = ? AND path = ?")
            var held: Set<String> = []
            for path in paths {
                guard let row = try Row.fetchOne(statement, arguments: [container, path]), BaseRow(row)?.entry.state?.kind == .folder else { continue }
                held.insert(path)
            }
            return held
        }
    }

    /// Reading every row of a container costs about as much as looking up this many
    /// times fewer roots: with raw SQLite on this schema, 100,000 rows read whole in
    /// 0.15-0.27 s, 100,000 roots looked up in 3.0-3.4 s (another device's first sync
    /// arrives as that many roots).
    static let rowsReadPerLookup = 15

    /// Below this many roots, the lookups are cheap whatever the base's size: not worth
    /// counting its rows.
    static let fewestRootsToReadWhole = 256

    private static func count(_ db: Database, container: String) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM base WHERE container = ?", arguments: [container]) ?? 0
    }

    /// Whether the base of `container` has fewer than `limit` rows. It counts no further
    /// than `limit`: a whole count reads every row (110,000: 10 ms here), and a pass over
    /// a burst of a few hundred changes asked up to three times.
    private static func hasFewerRows(than limit: Int, _ db: Database, container: String) throws -> Bool {
        let sql = "SELECT count(*) FROM (SELECT 1 FROM base WHERE container = ? LIMIT ?)"
        return try (Int.fetchOne(db, sql: sql, arguments: [container, limit]) ?? 0) < limit
    }

    /// Whether the base of `container` has fewer than `limit` rows (`hasFewerRows`).
    func baseHasFewerRows(container: String, than limit: Int) throws -> Bool {
        try queue.read { db in try Self.hasFewerRows(than: limit, db, container: container) }
    }

    /// How many entries the base of `container` has (what the mass-deletion guard compares with).
    func baseCount(container: String) throws -> Int {
        try queue.read { db in try Self.count(db, container: container) }
    }

    /// Whether any container has a base: a device that synced before expects its mirror.
    func hasSyncedBefore() throws -> Bool {
        try queue.read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM base)") ?? false }
    }

    /// Keeps the signature of each row of `rows` for its path, if the base still holds
    /// the row's version there. Not a change of the base: no journal line.
    func refreshSignatures(container: String, _ rows: [BaseRow]) throws {
        guard !rows.isEmpty else { return }
        try queue.write { db in
            let update = try db.cachedStatement(
                sql: "UPDATE base SET inode = ?, mtime_ns = ?, ctime_ns = ? WHERE container = ? AND path = ? AND version = ?")
            for row in rows {
                guard let signature = row.signature else { continue }
                try update.execute(arguments: [
                    Int64(bitPattern: signature.inode), signature.modifiedNanoseconds, signature.changedNanoseconds, container, row.path,
                    row.entry.version.description,
                ])
            }
        }
    }

    /// The highest sequence number of `device`'s own versions that this database's journal
    /// has recorded for `container` (0: none). A device numbers on from at least this: a
    /// log cut back, or restored from an older copy, no longer holds its last numbers, and
    /// other devices that read them once would take new versions under them for the old.
    func lastOwnSequence(container: String, device: String) throws -> UInt64 {
        let prefix = device + ":"
        return try queue.read { db in
            let last = try Int64.fetchOne(
                db,
                sql: "SELECT MAX(CAST(substr(version, ?) AS INTEGER)) FROM journal WHERE container = ? AND substr(version, 1, ?) = ?",
                arguments: [prefix.utf8.count + 1, container, prefix.utf8.count, prefix])
            return UInt64(max(last ?? 0, 0))
        }
    }

    /// Records base changes, each replacing the path's row, with its journal line, in
    /// one transaction.
    func commit(container: String, _ commits: [BaseCommit]) throws {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        try queue.write { db in
            // Prepared once per batch: parsing the SQL again for each row cost more than
            // the rows themselves (a first sync commits one per item).
            let replace = DirectStatement(try BaseRow.replaceStatement(db), in: db)
            let journal = DirectStatement(
                try db.cachedStatement(sql: "INSERT INTO journal(time, container, path, action, version) VALUES (?, ?, ?, ?, ?)"), in: db)
            for commit in commits {
                let version = commit.version.description
                try commit.row.replace(with: replace, container: container, version: version)
                try journal.bind(now, at: 1)
                try journal.bind(container, at: 2)
                try journal.bind(commit.path, at: 3)
                try journal.bind(commit.action, at: 4)
                try journal.bind(version, at: 5)
                try journal.run()
            }
        }
    }
}
