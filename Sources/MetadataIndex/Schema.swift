import GRDB

/// The index's tables, created and evolved by migrations.
///
/// `items` holds one row per item below a container folder (its ubiquity attributes are in
/// `item_sync` since v4: `SyncColumns`); its identity is
/// (`container`, `rel`), where `rel` is the raw bytes of the path below the container
/// folder (names need not be valid UTF-8). Every `*_fold` column holds
/// `PredicateFolding.fold(value, caseInsensitive: true, diacriticInsensitive: true)`, so
/// `[cd]` comparisons use an index. Dates are seconds since 2001-01-01 (NSDate's
/// reference date), so predicates with `CAST(n, "NSDate")` compare directly.
enum Schema {
    static func migrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: items, types, text") { db in
            try db.execute(sql: createItems + createTypes + createText)
        }
        migrator.registerMigration("v2: diary entries") { db in try DiarySchema.migrate(db) }
        migrator.registerMigration("v3: type trees by content type, deferred content") { db in
            try db.execute(sql: typeTreesByContentType + deferredContent)
        }
        migrator.registerMigration("v4: sync attributes in a table of their own") { db in
            try db.execute(sql: SyncColumns.migration)
        }
        return migrator
    }

    private static let createItems = """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE items (
            id INTEGER PRIMARY KEY,
            container TEXT NOT NULL,
            rel BLOB NOT NULL,
            scope TEXT NOT NULL,
            kind TEXT NOT NULL,
            fs_name TEXT NOT NULL,
            fs_name_fold TEXT NOT NULL,
            display_name TEXT NOT NULL,
            display_name_fold TEXT NOT NULL,
            path TEXT NOT NULL,
            path_fold TEXT NOT NULL,
            url TEXT NOT NULL,
            size INTEGER NOT NULL,
            created REAL,
            modified REAL,
            content_type TEXT NOT NULL,
            symlink_target BLOB,
            device INTEGER NOT NULL,
            inode INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            ctime_ns INTEGER NOT NULL,
            read_error TEXT,
            downloading_status TEXT NOT NULL DEFAULT 'NSMetadataUbiquitousItemDownloadingStatusCurrent',
            is_downloading INTEGER NOT NULL DEFAULT 0,
            percent_downloaded REAL NOT NULL DEFAULT 100,
            is_uploaded INTEGER NOT NULL DEFAULT 0,
            is_uploading INTEGER NOT NULL DEFAULT 0,
            percent_uploaded REAL NOT NULL DEFAULT 0,
            has_conflicts INTEGER NOT NULL DEFAULT 0,
            downloading_error TEXT,
            uploading_error TEXT,
            container_display_name TEXT NOT NULL,
            UNIQUE (container, rel)
        );

        """ + itemIndexes.map(\.create).joined(separator: "\n") + "\n"

    /// The items table's secondary indexes (for the attributes predicates filter and sort
    /// by). A bulk load into an empty table drops them; they are built once after it
    /// (`MetadataIndex.buildSecondaryIndexes()`).
    static let itemIndexes: [(name: String, create: String)] = [
        ("items_fs_name", "CREATE INDEX items_fs_name ON items(fs_name);"),
        ("items_fs_name_fold", "CREATE INDEX items_fs_name_fold ON items(fs_name_fold);"),
        ("items_modified", "CREATE INDEX items_modified ON items(modified);"),
        ("items_size", "CREATE INDEX items_size ON items(size);"),
        ("items_content_type", "CREATE INDEX items_content_type ON items(content_type);"),
    ]

    /// The indexes a bulk load into an empty table drops and `buildSecondaryIndexes()`
    /// builds after it: the secondary ones, and the partial index of rows waiting for
    /// their content (every row of a first scan: kept up row by row, it was one more
    /// B-tree insert per row on the load's single writer thread).
    static let deferredIndexes = itemIndexes + [
        ("items_content_pending", "CREATE INDEX items_content_pending ON items(id) WHERE content_pending = 1;")
    ]

    private static let createTypes = """
        CREATE TABLE item_types (
            item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            uti TEXT NOT NULL,
            PRIMARY KEY (item_id, position)
        ) WITHOUT ROWID;
        CREATE INDEX item_types_uti ON item_types(uti, item_id);

        """

    /// A content type's tree depends on the type alone, so it is stored once per type
    /// rather than once per item (100,000 items were half a million rows). `item_types`
    /// stays as a view with the same columns, so queries on kMDItemContentTypeTree compile
    /// as before: through the view, `uti = ?` is an index lookup in `type_trees`, then one
    /// in `items_content_type`.
    private static let typeTreesByContentType = """
        CREATE TABLE type_trees (
            content_type TEXT NOT NULL,
            position INTEGER NOT NULL,
            uti TEXT NOT NULL,
            PRIMARY KEY (content_type, position)
        ) WITHOUT ROWID;
        CREATE INDEX type_trees_uti ON type_trees(uti, content_type);
        INSERT OR IGNORE INTO type_trees (content_type, position, uti)
            SELECT items.content_type, item_types.position, item_types.uti
            FROM item_types JOIN items ON items.id = item_types.item_id;
        DROP TABLE item_types;
        CREATE VIEW item_types AS
            SELECT items.id AS item_id, type_trees.position AS position, type_trees.uti AS uti
            FROM items JOIN type_trees ON type_trees.content_type = items.content_type;

        """

    /// Rows whose content (sniffed type, text, diary entries) is still to be read: the
    /// start-up scan records names and status first and answers queries, then reads
    /// content in the background (`content_pending` = 1 until then).
    private static let deferredContent = """
        ALTER TABLE items ADD COLUMN content_pending INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX items_content_pending ON items(id) WHERE content_pending = 1;

        """

    private static let createText = """
        CREATE VIRTUAL TABLE item_text USING fts5(content, tokenize = 'porter unicode61 remove_diacritics 2');
        CREATE TRIGGER items_delete_text AFTER DELETE ON items BEGIN
            DELETE FROM item_text WHERE rowid = old.id;
        END;
        """
}
