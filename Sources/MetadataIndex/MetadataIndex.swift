import APIModel
import Foundation
import GRDB
import RawPaths

/// The metadata index: one SQLite database (WAL) in the state folder.
///
/// Writes come from one indexer; reads (queries) run concurrently on the pool's readers.
public final class MetadataIndex: Sendable {
    let pool: DatabasePool
    /// The root folder the rows' absolute paths were computed for.
    public let root: RawPath

    /// Opens (creating or migrating) the index at `path`. An index built for another
    /// root is emptied: its absolute paths would all be wrong, and a scan rebuilds it.
    public init(path: String, root: RawPath) throws {
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(5)
        // WAL with synchronous=NORMAL: commits do not fsync, and a crash can lose only the
        // last transactions, never corrupt the file. The index is derived data that the
        // start-up reconciliation rebuilds from the disk, so durability is not worth an
        // fsync per batch of changes.
        // 16 KiB pages (SQLite's default is 4 KiB) take effect only on a new file: a first
        // scan writes, checkpoints and rescans (to build the secondary indexes) the whole
        // items table, a quarter as many page reads and writes this way. 100,000 items:
        // ready in 2.60 s instead of 3.02 s (medians of 5, scripts in the session note).
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA page_size = 16384; PRAGMA synchronous = NORMAL") }
        pool = try DatabasePool(path: path, configuration: configuration)
        self.root = root
        try Schema.migrator().migrate(pool)
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA cache_size = -\(Self.writerCacheKiB)") }
        try pool.write { db in try Self.adopt(root: root, db) }
    }

    /// The writer's page cache, in KiB (SQLite's default is 2,000). A batch of changes
    /// touches rows all over the table; with 16 KiB pages, the default held 125 of them,
    /// and a batch that needed more spilled pages to the WAL mid-transaction and read them
    /// back. Indexing 1,000 edited files of a 100,000-file container read 156–174 MiB
    /// with the default, 53–68 MiB with this (16 MiB of cache: 30–49 MiB).
    static let writerCacheKiB = 8 * 1024

    private static func adopt(root: RawPath, _ db: Database) throws {
        let recorded = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'root'")
        guard recorded != root.readable else { return }
        try db.execute(sql: "DELETE FROM items")
        try db.execute(sql: "INSERT OR REPLACE INTO meta(key, value) VALUES ('root', ?)", arguments: [root.readable])
    }

    /// Applies a batch of changes in one transaction. With `journaling`, returns which
    /// rows they touched and removed (for live queries); otherwise an empty record.
    @discardableResult
    public func apply(_ changes: [IndexChange], journaling: Bool = false) throws -> AppliedChanges {
        guard !changes.isEmpty else { return AppliedChanges() }
        return try pool.write { db in
            var writer = IndexWriter(db: db, journal: journaling ? AppliedChanges() : nil)
            for change in changes { try writer.apply(change) }
            return writer.journal ?? AppliedChanges()
        }
    }

    /// Up to `limit` signatures of the item at `relativePath` and of everything below it,
    /// in path order, after the path `after` (from the start when nil): what a
    /// reconciliation compares the disk with, a page at a time.
    public func signatures(container: String, under relativePath: RawPath, after: RawPath?, limit: Int) throws -> [IndexedSignature] {
        try pool.read { db in try IndexReader.signatures(db, container: container, under: relativePath, after: after, limit: limit) }
    }

    /// The signatures of the item at `relativePath` and of everything below it, keyed by
    /// path below the container.
    public func signatures(container: String, under relativePath: RawPath) throws -> [RawPath: FileSignature] {
        try pool.read { db in
            let all = try IndexReader.signatures(db, container: container, under: relativePath, after: nil, limit: Int.max)
            return Dictionary(uniqueKeysWithValues: all.map { ($0.relativePath, $0.signature) })
        }
    }

    /// Items per container.
    public func counts() throws -> [String: Int] {
        try pool.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT container, count(*) AS n FROM items GROUP BY container")
            return Dictionary(uniqueKeysWithValues: rows.map { ($0["container"] as String, $0["n"] as Int) })
        }
    }

    /// Every attribute of one item, or nil if the index has no such item.
    public func item(container: String, relativePath: RawPath) throws -> ResultItem? {
        try pool.read { db in
            let sql = "SELECT \(ItemColumns.selectList) FROM \(ItemColumns.source) WHERE items.container = ? AND items.rel = ?"
            guard let row = try Row.fetchOne(db, sql: sql, arguments: [container, Data(relativePath.bytes)]) else { return nil }
            return try ItemColumns.resultItem(row, attributes: MetadataAttribute.all.map(\.name), db: db)
        }
    }
}

extension MetadataIndex {
    /// The items recorded with one of these files (device and inode): the other names of
    /// hard-linked files. One pass over the table (no index on inodes: the bulk load of a
    /// first start would pay for it, and only changes to files with several names ask).
    public func items(withFiles files: Set<FileIdentity>) throws -> [(container: String, relativePath: RawPath)] {
        guard !files.isEmpty else { return [] }
        let inodes = Set(files.map(\.inode))
        return try pool.read { db in
            let placeholders = Array(repeating: "?", count: inodes.count).joined(separator: ",")
            let rows = try Row.fetchAll(
                db, sql: "SELECT container, rel, device, inode FROM items WHERE inode IN (\(placeholders))",
                arguments: StatementArguments(inodes.map { Int64(bitPattern: $0) }))
            return rows.compactMap { row in
                let file = FileIdentity(device: UInt64(bitPattern: row["device"]), inode: UInt64(bitPattern: row["inode"]))
                guard files.contains(file) else { return nil }
                return (row["container"], RawPath(bytes: [UInt8](row["rel"] as Data)))
            }
        }
    }

    /// The signatures of the items at these paths (those the index has), in one read.
    public func signatures(of items: [(container: String, relativePath: RawPath)]) throws -> [String: [RawPath: FileSignature]] {
        try pool.read { db in
            let statement = try db.cachedStatement(sql: "SELECT kind, device, inode, size, mtime_ns, ctime_ns FROM items WHERE container = ? AND rel = ?")
            var result: [String: [RawPath: FileSignature]] = [:]
            for item in items {
                guard let row = try Row.fetchOne(statement, arguments: [item.container, Data(item.relativePath.bytes)]) else { continue }
                result[item.container, default: [:]][item.relativePath] = IndexReader.signature(row)
            }
            return result
        }
    }
}

/// One file on one filesystem, whatever its names.
public struct FileIdentity: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64

    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}
