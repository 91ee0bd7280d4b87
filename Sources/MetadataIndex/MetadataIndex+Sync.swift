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
    /// Sets the ubiquity attributes of the items of `container` that `state` covers, in one
    /// transaction: the paths go to temporary tables, and one UPDATE per subtree (one for a
    /// whole container) reads them, not one per item.
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
            guard let roots = state.limitedTo else {
                try Self.update(db, container: container, where: "", [], uploadError: state.uploadError)
                return
            }
            // Per subtree, the item and the range below it, each an index lookup (an OR of
            // the two would scan the table: thousands of changed paths would be quadratic).
            for root in roots {
                let (low, high) = (Data(root.bytes + [0x2F]), Data(root.bytes + [0x30]))
                try Self.update(db, container: container, where: "AND rel = ?", [Data(root.bytes)], uploadError: state.uploadError)
                try Self.update(db, container: container, where: "AND rel > ? AND rel < ?", [low, high], uploadError: state.uploadError)
            }
        }
    }

    private static func update(
        _ db: Database, container: String, where condition: String, _ values: [Data], uploadError: String?
    ) throws {
        let scope: [(any DatabaseValueConvertible)?] = [container] + values
        try db.execute(
            sql: """
                UPDATE items SET
                    is_uploaded = EXISTS (SELECT 1 FROM sync_uploaded s WHERE s.rel = items.rel),
                    has_conflicts = EXISTS (SELECT 1 FROM sync_conflicted c WHERE c.rel = items.rel)
                WHERE container = ? \(condition)
                """, arguments: StatementArguments(scope))
        try db.execute(
            sql: """
                UPDATE items SET
                    percent_uploaded = CASE WHEN is_uploaded THEN 100.0 ELSE 0.0 END,
                    is_uploading = 0,
                    uploading_error = CASE WHEN is_uploaded THEN NULL ELSE ? END
                WHERE container = ? \(condition)
                """, arguments: StatementArguments([uploadError] + scope))
    }
}
