import Foundation
import GRDB
import RawPaths

/// An item whose content the index has not read yet (`ItemSnapshot.contentPending`).
public struct PendingContent: Sendable, Hashable {
    /// The row id: a pass over the pending items walks them in id order.
    public var id: Int64
    public var container: String
    public var relativePath: RawPath
}

extension MetadataIndex {
    /// Up to `limit` items still waiting for their content with a row id above `id`, in
    /// id order (so that one pass meets each item once, even one it cannot complete).
    public func pendingContent(after id: Int64, limit: Int) throws -> [PendingContent] {
        try pool.read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT id, container, rel FROM items WHERE content_pending = 1 AND id > ? ORDER BY id LIMIT ?",
                arguments: [id, limit])
            return rows.map { PendingContent(id: $0["id"], container: $0["container"], relativePath: RawPath(bytes: $0["rel"] as Data)) }
        }
    }

    /// How many items still wait for their content.
    public func pendingContentCount() throws -> Int {
        try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM items WHERE content_pending = 1") ?? 0 }
    }

    /// Whether some item still waits for its content: the first one found ends the search,
    /// where a count reads the whole table when its partial index is not built yet (after a
    /// first scan, until READY).
    public func hasPendingContent() throws -> Bool {
        try pool.read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM items WHERE content_pending = 1)") ?? false }
    }
}

extension MetadataIndex {
    /// Applies the batches `load` hands to `BulkLoad.apply` for one container, all in one
    /// transaction, with a larger page cache meanwhile: a bulk load (the start-up scan)
    /// then writes each page of the table and its indexes about once, where one
    /// transaction per batch rewrote the same index pages into the WAL again and again.
    /// Into an empty table (a new index), the secondary indexes are dropped rather than
    /// kept up row by row, and left for `buildSecondaryIndexes()` to build once. Nothing
    /// is journaled for live queries, and readers see none of it until the end.
    ///
    /// Its commit does not checkpoint: copying the whole load from the WAL into the
    /// database file (and the fsyncs around it) took 0.4 s of a 100,000-item first scan,
    /// before the daemon could answer queries. Readers find the pages in the WAL meanwhile,
    /// and the next write's commit checkpoints as usual.
    public func applyInOneTransaction(container: String, _ load: (BulkLoad) throws -> Void) throws {
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            defer { try? db.execute(sql: "PRAGMA wal_autocheckpoint = \(Self.autocheckpointPages)") }
            try db.inTransaction {
                try bulkLoad(container: container, db, load)
                return .commit
            }
        }
    }

    private func bulkLoad(container: String, _ db: Database, _ load: (BulkLoad) throws -> Void) throws {
        let emptyTable = try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM items)") ?? false
        let newContainer = try Bool.fetchOne(
            db, sql: "SELECT NOT EXISTS (SELECT 1 FROM items WHERE container = ?)", arguments: [container]) ?? false
        if emptyTable {
            for index in Schema.deferredIndexes { try db.execute(sql: "DROP INDEX IF EXISTS \(index.name)") }
        }
        let writer = IndexWriter(db: db, journal: nil, insertsOnly: newContainer)
        try load(BulkLoad(container: container, writer: writer, containerIsNew: newContainer))
    }

    /// Builds the secondary indexes a bulk load into an empty table dropped; does nothing
    /// when they exist. ubqd calls it after READY: on a first start with 100,000 items,
    /// building them took 0.4 s, all of it on one core after the load, while the other
    /// idled. Queries are answered meanwhile, by scanning the table (tens of milliseconds
    /// at that size), and their results are the same. Called again at every start, so an
    /// index a crash left unbuilt is built at the next. Returns how many it built.
    @discardableResult
    public func buildSecondaryIndexes() async throws -> Int {
        try await pool.write { db in
            let existing = try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'items'")
            let missing = Schema.deferredIndexes.filter { !existing.contains($0.name) }
            for index in missing { try db.execute(sql: index.create) }
            return missing.count
        }
    }

    /// SQLite's default: a commit checkpoints once the WAL holds this many pages.
    static let autocheckpointPages = 1000
}

/// One container's bulk load in progress (`MetadataIndex.applyInOneTransaction`): writes,
/// and reads of what the same transaction sees. Valid only inside that call.
public final class BulkLoad {
    private let container: String
    private var writer: IndexWriter
    /// The index had no row of the container when the load began: every row is new, and
    /// rows built ahead go in with `insert(_:)`, a plain insert.
    public let containerIsNew: Bool

    fileprivate init(container: String, writer: IndexWriter, containerIsNew: Bool) {
        self.container = container
        self.writer = writer
        self.containerIsNew = containerIsNew
    }

    public func apply(_ changes: [IndexChange]) throws {
        for change in changes { try writer.apply(change) }
    }

    /// Inserts rows built ahead; only into a container that was new when the load began
    /// (`containerIsNew`).
    public func insert(_ rows: NewRows) throws {
        try writer.insert(rows)
    }

    /// As `MetadataIndex.signatures(container:under:after:limit:)`, in this transaction.
    public func signatures(under relativePath: RawPath, after: RawPath?, limit: Int) throws -> [IndexedSignature] {
        try IndexReader.signatures(writer.db, container: container, under: relativePath, after: after, limit: limit)
    }
}
