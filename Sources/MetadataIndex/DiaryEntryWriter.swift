import GRDB
import PredicateKit

extension IndexWriter {
    /// Deletes the entry rows of item `itemID` (a diary is rewritten whole on every save,
    /// and a file that is no longer a diary keeps none). Deleting cascades to tags and text.
    /// Looked up first: most items are no diary, and the DELETE, even of no row, fires the
    /// cascade's trigger machinery, which opens a statement journal and makes the
    /// full-text tables flush what the transaction holds so far. On a 1% re-index of
    /// 100,000 text files the DELETE was 28% of the index writer's CPU.
    func deleteDiaryEntries(itemID: Int64) throws {
        let anyEntry = try db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM diary_entries WHERE item_id = ?)")
        guard try Bool.fetchOne(anyEntry, arguments: [itemID]) == true else { return }
        try db.cachedStatement(sql: "DELETE FROM diary_entries WHERE item_id = ?").execute(arguments: [itemID])
    }

    /// Adds `entries` as the entry rows of item `itemID`, which has none.
    func insertDiaryEntries(itemID: Int64, entries: [DiaryEntryRecord]) throws {
        for (position, entry) in entries.enumerated() {
            try insert(entry, itemID: itemID, position: position)
        }
    }

    private func insert(_ entry: DiaryEntryRecord, itemID: Int64, position: Int) throws {
        let row = try db.cachedStatement(sql: """
            INSERT INTO diary_entries (item_id, position, entry_id, title, title_fold, created, modified)
            VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id
            """)
        let folded = PredicateFolding.fold(entry.title, caseInsensitive: true, diacriticInsensitive: true)
        let arguments: StatementArguments = [itemID, position, entry.id, entry.title, folded, entry.created, entry.modified]
        guard let id = try Int64.fetchOne(row, arguments: arguments) else { return }
        let tag = try db.cachedStatement(sql: "INSERT INTO diary_entry_tags (entry_row, position, tag) VALUES (?, ?, ?)")
        for (index, name) in entry.tags.enumerated() { try tag.execute(arguments: [id, index, name]) }
        guard !entry.body.isEmpty else { return }
        try db.cachedStatement(sql: "INSERT INTO diary_entry_text (rowid, content) VALUES (?, ?)").execute(arguments: [id, entry.body])
    }
}
