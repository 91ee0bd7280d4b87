import GRDB

/// The diary-entry tables (migration v2). Each entry of an indexed diary is one row of
/// `diary_entries`, linked to the diary file's row in `items`: deleting that row (the file
/// removed, or its folder) cascades to its entries, their tags and, through the trigger,
/// their text. A move keeps the item's id, so entries follow the file without a rewrite.
/// `position` is the entry's index in the file (ids are not trusted to be unique in a
/// hand-made file); dates are seconds since 2001, as in `items`.
enum DiarySchema {
    static func migrate(_ db: Database) throws {
        try db.execute(sql: createEntries + createTags + createText)
        // Files indexed before this migration were never looked at as diaries, and an
        // unchanged signature means "do not read again". Changing the recorded ctime makes
        // the next reconciliation read every file once more, so existing diaries get entries.
        try db.execute(sql: "UPDATE items SET ctime_ns = -1 WHERE kind = 'file'")
    }

    private static let createEntries = """
        CREATE TABLE diary_entries (
            id INTEGER PRIMARY KEY,
            item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            entry_id TEXT NOT NULL,
            title TEXT NOT NULL,
            title_fold TEXT NOT NULL,
            created REAL NOT NULL,
            modified REAL NOT NULL,
            UNIQUE (item_id, position)
        );
        CREATE INDEX diary_entries_entry_id ON diary_entries(entry_id);
        CREATE INDEX diary_entries_title_fold ON diary_entries(title_fold);
        CREATE INDEX diary_entries_created ON diary_entries(created);
        CREATE INDEX diary_entries_modified ON diary_entries(modified);

        """

    private static let createTags = """
        CREATE TABLE diary_entry_tags (
            entry_row INTEGER NOT NULL REFERENCES diary_entries(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            tag TEXT NOT NULL,
            PRIMARY KEY (entry_row, position)
        ) WITHOUT ROWID;
        CREATE INDEX diary_entry_tags_tag ON diary_entry_tags(tag, entry_row);

        """

    private static let createText = """
        CREATE VIRTUAL TABLE diary_entry_text USING fts5(content, tokenize = 'porter unicode61 remove_diacritics 2');
        CREATE TRIGGER diary_entries_delete_text AFTER DELETE ON diary_entries BEGIN
            DELETE FROM diary_entry_text WHERE rowid = old.id;
        END;
        """
}
