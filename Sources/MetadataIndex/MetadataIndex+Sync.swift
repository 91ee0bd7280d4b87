import Foundation
import GRDB
import RawPaths

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
    /// The temporary tables the paths of a `SyncedState` go to, each read by the UPDATE.
    private static let pathTables = ["sync_uploaded", "sync_conflicted", "sync_uploading", "sync_outdated"]

    /// Sets the ubiquity attributes of the items of `container` that `state` covers, in one
    /// transaction: the paths go to temporary tables, and a few UPDATEs read them, not one
    /// per item. Returns the rows whose attributes changed, for the live queries to look at
    /// again.
    @discardableResult
    public func applySyncState(container: String, _ state: SyncedState) throws -> AppliedChanges {
        try pool.write { db in
            for (table, paths) in zip(Self.pathTables, [state.uploaded, state.conflicted, state.uploading, state.outdated ?? []]) {
                try Self.fill(db, table: table, with: paths)
            }
            var changes = AppliedChanges()
            let update = SyncStateUpdate(container: container, uploadError: state.uploadError, knowsDownloads: state.outdated != nil)
            if let roots = state.limitedTo { try Self.fillScope(db, container: container, roots: roots) }
            try update.run(db, scoped: state.limitedTo != nil, changes: &changes)
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
            let statement = try db.cachedStatement(sql: """
                UPDATE items SET is_uploaded = ?1, is_uploading = NOT ?1, percent_uploaded = CASE WHEN ?1 THEN 100.0 ELSE 0.0 END,
                    uploading_error = CASE WHEN ?1 THEN NULL ELSE uploading_error END
                WHERE container = ?2 AND rel IN (SELECT rel FROM sync_marked) AND (is_uploaded IS NOT ?1 OR is_uploading IS NOT (NOT ?1))
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
        let insert = try db.makeStatement(sql: "INSERT OR IGNORE INTO \(table)(rel) VALUES (?)")
        for path in paths { try insert.execute(arguments: [Data(path.bytes)]) }
    }

    /// Puts the ids of the items in the subtrees `roots` into `sync_scope`, which the
    /// UPDATEs then join: the items, not the roots, are what they go over. Per subtree, the
    /// item and the range below it, each an index lookup (an OR of the two would scan the
    /// table). Running the UPDATEs once per root instead cost 6 statements a root: about
    /// 150 µs of the sync thread for each file a 1,000-file re-sync published.
    private static func fillScope(_ db: Database, container: String, roots: [RawPath]) throws {
        try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS sync_scope (id INTEGER PRIMARY KEY)")
        try db.execute(sql: "DELETE FROM sync_scope")
        let item = try db.cachedStatement(sql: "INSERT OR IGNORE INTO sync_scope SELECT id FROM items WHERE container = ? AND rel = ?")
        let below = try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO sync_scope SELECT id FROM items WHERE container = ? AND rel > ? AND rel < ?")
        for root in roots {
            try item.execute(arguments: [container, Data(root.bytes)])
            try below.execute(arguments: [container, Data(root.bytes + [0x2F]), Data(root.bytes + [0x30])])
        }
    }
}

/// The UPDATEs that set the ubiquity columns from the temporary path tables.
private struct SyncStateUpdate {
    var container: String
    var uploadError: String?
    /// Whether the downloading columns are known (the mirror was read).
    var knowsDownloads: Bool

    /// Each UPDATE sets only the rows whose values change, so a full pass that changed
    /// nothing updates no row. (SQLite would not write the unchanged pages anyway, but it
    /// would build and compare every row of the container: 0.1 to 0.2 s of a 100,000-item
    /// pass.) `scoped`: only the items in `sync_scope` (all of this container), else every
    /// item of the container. (Both conditions at once would have SQLite go over the
    /// container's index and test each row against the scope: the whole container.)
    func run(_ db: Database, scoped: Bool, changes: inout AppliedChanges) throws {
        let condition = scoped ? "id IN (SELECT id FROM sync_scope)" : "container = ?"
        let scope: [(any DatabaseValueConvertible)?] = scoped ? [] : [container]
        try update(db, [
            ("is_uploaded", "EXISTS (SELECT 1 FROM sync_uploaded s WHERE s.rel = items.rel)"),
            ("is_uploading", "EXISTS (SELECT 1 FROM sync_uploading u WHERE u.rel = items.rel)"),
            ("has_conflicts", "EXISTS (SELECT 1 FROM sync_conflicted c WHERE c.rel = items.rel)"),
        ], where: condition, scope, changes: &changes)
        try update(db, [
            ("percent_uploaded", "CASE WHEN is_uploaded THEN 100.0 ELSE 0.0 END"),
            ("uploading_error", "CASE WHEN is_uploaded THEN NULL ELSE ?1 END"),
        ], where: condition, [uploadError] + scope, changes: &changes)
        guard knowsDownloads else { return }
        let outdated = "EXISTS (SELECT 1 FROM sync_outdated o WHERE o.rel = items.rel)"
        try update(db, [
            ("downloading_status", "CASE WHEN \(outdated) THEN '\(Self.downloaded)' ELSE '\(Self.current)' END"),
            ("percent_downloaded", "CASE WHEN \(outdated) THEN 0.0 ELSE 100.0 END"),
            ("is_downloading", "0"),
        ], where: condition, scope, changes: &changes)
    }

    /// `UPDATE items SET column = value, …` for the rows `condition` picks where any
    /// column differs from its value; records the rows it changed in `changes`.
    /// `arguments` end with those of `condition`; a value may use `?1` if `arguments` start
    /// with its value (a plain `?` takes the number after the highest so far).
    private func update(
        _ db: Database, _ assignments: [(column: String, value: String)], where condition: String,
        _ arguments: [(any DatabaseValueConvertible)?], changes: inout AppliedChanges
    ) throws {
        let set = assignments.map { "\($0.column) = \($0.value)" }.joined(separator: ", ")
        let differs = assignments.map { "\($0.column) IS NOT (\($0.value))" }.joined(separator: " OR ")
        let statement = try db.cachedStatement(sql: "UPDATE items SET \(set) WHERE \(condition) AND (\(differs)) RETURNING id")
        let ids = try Int64.fetchCursor(statement, arguments: StatementArguments(arguments))
        while let id = try ids.next() { changes.recordTouch(id) }
    }

    static let current = "NSMetadataUbiquitousItemDownloadingStatusCurrent"
    static let downloaded = "NSMetadataUbiquitousItemDownloadingStatusDownloaded"
}
