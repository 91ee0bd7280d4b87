/// The ubiquity attributes the sync engine sets, in a table of their own, `item_sync`: one
/// row per item whose attributes were ever set, under the item's id; an item with no row
/// has every default. Reads join it to `items` (`join`, `value(of:)`).
///
/// They change far more often than an item's other columns: a first sync of 100,000 files
/// marks every item uploading, then uploaded, batch by batch. In `items`, each mark
/// rewrote the whole row (its names, path, URL, status: 50 MB of pages for 100,000
/// items), and the pass's final state read all of it back. Here a row is a few dozen bytes.
enum SyncColumns {
    /// Each column, its SQL type and its default (what an item with no row has), as SQL.
    static let all: [(name: String, type: String, defaultValue: String)] = [
        ("downloading_status", "TEXT NOT NULL", "'NSMetadataUbiquitousItemDownloadingStatusCurrent'"),
        ("is_downloading", "INTEGER NOT NULL", "0"),
        ("percent_downloaded", "REAL NOT NULL", "100"),
        ("is_uploaded", "INTEGER NOT NULL", "0"),
        ("is_uploading", "INTEGER NOT NULL", "0"),
        ("percent_uploaded", "REAL NOT NULL", "0"),
        ("has_conflicts", "INTEGER NOT NULL", "0"),
        ("downloading_error", "TEXT", "NULL"),
        ("uploading_error", "TEXT", "NULL"),
    ]

    /// What a read of `items` joins to see the attributes.
    static let join = "LEFT JOIN item_sync ON item_sync.id = items.id"

    /// The SQL for column `name`'s value of an item joined with `join`: its row's, else the default.
    static func value(of name: String) -> String {
        guard let column = all.first(where: { $0.name == name }) else { preconditionFailure("no sync column \(name)") }
        return "coalesce(item_sync.\(name), \(column.defaultValue))"
    }

    /// Every column's value (`value(of:)`) under its own name, for a select list.
    static let selectList = all.map { "\(value(of: $0.name)) AS \($0.name)" }.joined(separator: ", ")

    /// Moves the columns out of `items` (schema v4): the table, the values set so far, a
    /// trigger that takes an item's row with it, and the old columns dropped.
    static let migration = """
        CREATE TABLE item_sync (
            id INTEGER PRIMARY KEY,
            \(all.map { "\($0.name) \($0.type) DEFAULT \($0.defaultValue)" }.joined(separator: ",\n    "))
        );
        INSERT INTO item_sync (id, \(all.map(\.name).joined(separator: ", ")))
            SELECT id, \(all.map(\.name).joined(separator: ", ")) FROM items
            WHERE \(all.map { "\($0.name) IS NOT \($0.defaultValue)" }.joined(separator: " OR "));
        CREATE TRIGGER items_delete_sync AFTER DELETE ON items BEGIN
            DELETE FROM item_sync WHERE id = old.id;
        END;
        \(all.map { "ALTER TABLE items DROP COLUMN \($0.name);" }.joined(separator: "\n"))

        """
}
