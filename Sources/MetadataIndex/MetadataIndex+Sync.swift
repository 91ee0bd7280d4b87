import Foundation
import GRDB
import RawPaths

/// What the sync engine knows of a container's items, for the ubiquity attributes.
public struct SyncedState: Sendable {
    /// Items whose local content is in the mirror (`…IsUploadedKey`, 100 % uploaded).
    public var uploaded: [RawPath]
    /// Items with unresolved conflict versions (`…HasUnresolvedConflictsKey`).
    public var conflicted: [RawPath]
    /// An error to show on items not uploaded (`…UploadingErrorKey`), e.g. a paused mirror.
    public var uploadError: String?
    /// When set, the state covers only these subtrees (a pass that looked at what changed);
    /// items elsewhere keep their attributes.
    public var limitedTo: [RawPath]?

    public init(uploaded: [RawPath], conflicted: [RawPath], uploadError: String? = nil, limitedTo: [RawPath]? = nil) {
        self.uploaded = uploaded
        self.conflicted = conflicted
        self.uploadError = uploadError
        self.limitedTo = limitedTo
    }
}

extension MetadataIndex {
    /// Sets the ubiquity attributes of every item of `container` from `state`, in one
    /// transaction: one UPDATE against a temporary table, not one per item.
    public func applySyncState(container: String, _ state: SyncedState) throws {
        try pool.write { db in
            try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS sync_uploaded (rel BLOB PRIMARY KEY) WITHOUT ROWID")
            try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS sync_conflicted (rel BLOB PRIMARY KEY) WITHOUT ROWID")
            try db.execute(sql: "DELETE FROM sync_uploaded")
            try db.execute(sql: "DELETE FROM sync_conflicted")
            let insertUploaded = try db.makeStatement(sql: "INSERT OR IGNORE INTO sync_uploaded(rel) VALUES (?)")
            for path in state.uploaded { try insertUploaded.execute(arguments: [Data(path.bytes)]) }
            let insertConflicted = try db.makeStatement(sql: "INSERT OR IGNORE INTO sync_conflicted(rel) VALUES (?)")
            for path in state.conflicted { try insertConflicted.execute(arguments: [Data(path.bytes)]) }
            let scope = try Self.scopeCondition(db, state.limitedTo)
            try db.execute(
                sql: """
                    UPDATE items SET
                        is_uploaded = EXISTS (SELECT 1 FROM sync_uploaded s WHERE s.rel = items.rel),
                        has_conflicts = EXISTS (SELECT 1 FROM sync_conflicted c WHERE c.rel = items.rel)
                    WHERE container = ? \(scope)
                    """, arguments: [container])
            try db.execute(
                sql: """
                    UPDATE items SET
                        percent_uploaded = CASE WHEN is_uploaded THEN 100.0 ELSE 0.0 END,
                        is_uploading = 0,
                        uploading_error = CASE WHEN is_uploaded THEN NULL ELSE ? END
                    WHERE container = ? \(scope)
                    """, arguments: [state.uploadError, container])
        }
    }

    /// `AND (rel in one of the subtrees)`, through a temporary table of the subtree roots;
    /// empty for the whole container.
    private static func scopeCondition(_ db: Database, _ roots: [RawPath]?) throws -> String {
        guard let roots else { return "" }
        try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS sync_scope (rel BLOB PRIMARY KEY, low BLOB, high BLOB) WITHOUT ROWID")
        try db.execute(sql: "DELETE FROM sync_scope")
        let insert = try db.makeStatement(sql: "INSERT OR IGNORE INTO sync_scope(rel, low, high) VALUES (?, ?, ?)")
        for root in roots {
            try insert.execute(arguments: [Data(root.bytes), Data(root.bytes + [0x2F]), Data(root.bytes + [0x30])])
        }
        return "AND EXISTS (SELECT 1 FROM sync_scope r WHERE items.rel = r.rel OR (items.rel > r.low AND items.rel < r.high))"
    }
}
