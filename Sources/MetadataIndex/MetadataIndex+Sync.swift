import Foundation
import GRDB
import RawPaths
import SQLiteDirect

/// What the sync engine knows of a container's items, for the ubiquity attributes.
///
/// Files are never evicted on this design (every device keeps every file it syncs), so
/// `…DownloadingStatusKey` is Current or Downloaded, never NotDownloaded. A download is
/// written beside its file and renamed into place, so an item is never seen half
/// downloaded: `…IsDownloadingKey` stays false (see README, "Sync").
public struct SyncedState: Sendable {
    /// Items whose local content is in the mirror (`…IsUploadedKey`, 100 % uploaded).
    public var uploaded: [RawPath]
    /// Items with unresolved conflict versions (`…HasUnresolvedConflictsKey`).
    public var conflicted: [RawPath]
    /// Items whose local change waits to be published (`…IsUploadingKey`): not settled
    /// yet, failed, or sync paused.
    public var uploading: [RawPath]
    /// Items with a newer version in the mirror that is not on disk yet (DownloadingStatus
    /// Downloaded, 0 % of the newest version downloaded); the others covered are Current.
    /// nil when unknown (the mirror cannot be read): the downloading attributes stay.
    public var outdated: [RawPath]?
    /// An error to show on items not uploaded (`…UploadingErrorKey`), e.g. a paused mirror.
    public var uploadError: String?
    /// Items sync leaves out until the user changes them (a name it cannot carry), with
    /// why: their own `…UploadingErrorKey`, before `uploadError`.
    public var itemErrors: [RawPath: String] = [:]
    /// Items whose newer version could not be put on disk (outdated ones), with why: their
    /// `…DownloadingErrorKey`.
    public var downloadErrors: [RawPath: String] = [:]
    /// When set, the state covers only these subtrees (a pass that looked at what changed);
    /// items elsewhere keep their attributes.
    public var limitedTo: [RawPath]?

    public init(
        uploaded: [RawPath], conflicted: [RawPath], uploading: [RawPath] = [], outdated: [RawPath]? = [],
        uploadError: String? = nil, limitedTo: [RawPath]? = nil
    ) {
        self.uploaded = uploaded
        self.conflicted = conflicted
        self.uploading = uploading
        self.outdated = outdated
        self.uploadError = uploadError
        self.limitedTo = limitedTo
    }
}

extension MetadataIndex {
    /// Sets the ubiquity attributes of the items of `container` that `state` covers, in one
    /// transaction (`SyncStateUpdate`). Returns the rows whose attributes changed, for the
    /// live queries to look at again.
    @discardableResult
    public func applySyncState(container: String, _ state: SyncedState) throws -> AppliedChanges {
        try pool.write { db in
            var changes = AppliedChanges()
            try SyncStateUpdate(container: container, state).run(db, changes: &changes)
            return changes
        }
    }

    /// Marks exactly the items at `paths` (not what lies below them) as uploading, or as
    /// uploaded, while a pass is under way: the index follows a long pass (a first sync)
    /// file by file, where `applySyncState` at its end would show nothing until then. Runs
    /// after the index's writes queued before it, and before any queued after it (the
    /// pass's final state); `completion` gets the rows that changed.
    public func markUploads(
        container: String, _ paths: [RawPath], uploaded: Bool,
        completion: @escaping @Sendable (Result<AppliedChanges, any Error>) -> Void
    ) {
        pool.asyncWrite({ db in
            try Self.fill(db, table: "sync_marked", with: paths)
            // Not the container's index with a test of each row: `rel IN` looks each path up.
            // An item with no `item_sync` row gets one (it had the defaults: neither uploaded
            // nor uploading, so the mark changes it); one whose row says so already is left.
            let statement = try db.cachedStatement(sql: """
                INSERT INTO item_sync (id, is_uploaded, is_uploading, percent_uploaded)
                    SELECT id, ?1, NOT ?1, CASE WHEN ?1 THEN 100.0 ELSE 0.0 END FROM items
                    WHERE container = ?2 AND rel IN (SELECT rel FROM sync_marked)
                ON CONFLICT (id) DO UPDATE SET
                    is_uploaded = excluded.is_uploaded, is_uploading = excluded.is_uploading, percent_uploaded = excluded.percent_uploaded,
                    uploading_error = CASE WHEN ?1 THEN NULL ELSE item_sync.uploading_error END
                    WHERE item_sync.is_uploaded IS NOT ?1 OR item_sync.is_uploading IS NOT (NOT ?1)
                RETURNING id
                """)
            var changes = AppliedChanges()
            let ids = try Int64.fetchCursor(statement, arguments: [uploaded, container])
            while let id = try ids.next() { changes.recordTouch(id) }
            return changes
        }, completion: { _, result in completion(result) })
    }

    private static func fill(_ db: Database, table: String, with paths: [RawPath]) throws {
        try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS \(table) (rel BLOB PRIMARY KEY) WITHOUT ROWID")
        try db.execute(sql: "DELETE FROM \(table)")
        // Bound directly (`DirectStatement`): through GRDB's arguments, each path was copied
        // into a Data and boxed first (0.2 s for a first sync's 110,000 paths).
        let insert = DirectStatement(try db.makeStatement(sql: "INSERT OR IGNORE INTO \(table)(rel) VALUES (?)"), in: db)
        for path in paths {
            try insert.bind(blob: path.bytes, at: 1)
            try insert.run()
        }
    }
}
