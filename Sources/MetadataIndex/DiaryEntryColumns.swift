import APIModel
import Foundation
import GRDB
import PredicateKit

/// How diary-entry attributes map to the columns of `diary_entries` (see `DiarySchema`) and
/// of the diary file's row in `items`, which every entry row is joined with.
enum DiaryEntryColumns: RecordColumns {
    static let schema = SQLSchema(table: "diary_entries", columns: [
        "ubqDiaryEntryID": .scalar(name: "diary_entries.entry_id", type: .text, folded: nil),
        "kMDItemTitle": .scalar(name: "diary_entries.title", type: .text, folded: "diary_entries.title_fold"),
        "kMDItemContentCreationDate": .scalar(name: "diary_entries.created", type: .date, folded: nil),
        "kMDItemContentModificationDate": .scalar(name: "diary_entries.modified", type: .date, folded: nil),
        "kMDItemKeywords": .multiValued(table: "diary_entry_tags", itemColumn: "entry_row", valueColumn: "tag", type: .text),
        "kMDItemTextContent": .fullText(table: "diary_entry_text"),
        "kMDItemPath": .scalar(name: "items.path", type: .text, folded: "items.path_fold"),
    ])

    static let source = "diary_entries JOIN items ON items.id = diary_entries.item_id"

    // Tags in file order: group_concat follows the order of the subquery's rows.
    static let selectList = """
        diary_entries.id, diary_entries.entry_id, diary_entries.title, diary_entries.created, diary_entries.modified,
        items.path, items.url,
        (SELECT group_concat(tag, char(31)) FROM
            (SELECT tag FROM diary_entry_tags WHERE entry_row = diary_entries.id ORDER BY position)) AS tags
        """

    /// Entries of one diary stay in file order (the app's order: oldest first).
    static let tieBreak = ["items.path ASC", "diary_entries.position ASC"]

    static func attributes(_ row: Row, db: Database, includeText: Bool) throws -> [String: AttributeValue] {
        let tags = ((row["tags"] as String?) ?? "").split(separator: "\u{1F}", omittingEmptySubsequences: false)
        var values: [String: AttributeValue] = [
            "ubqDiaryEntryID": .string(row["entry_id"]),
            "kMDItemTitle": .string(row["title"]),
            "kMDItemContentCreationDate": .date(row["created"]),
            "kMDItemContentModificationDate": .date(row["modified"]),
            "kMDItemKeywords": .array((row["tags"] as String?) == nil ? [] : tags.map { .string(String($0)) }),
            "kMDItemPath": .string(row["path"]),
        ]
        if includeText {
            let body = try String.fetchOne(db, sql: "SELECT content FROM diary_entry_text WHERE rowid = ?", arguments: [row["id"] as Int64])
            values["kMDItemTextContent"] = .string(body ?? "")
        }
        return values
    }
}
