import APIModel
import Foundation
import GRDB
import PredicateKit
import RawPaths

/// How item attributes map to columns, for SQL compilation and for reading rows back.
enum ItemColumns: RecordColumns {
    /// The schema predicates compile against.
    static let schema = SQLSchema(table: "items", columns: columnsByAttribute)

    private static let columnsByAttribute: [String: SQLColumn] = [
        "kMDItemFSName": .scalar(name: "items.fs_name", type: .text, folded: "items.fs_name_fold"),
        "kMDItemDisplayName": .scalar(name: "items.display_name", type: .text, folded: "items.display_name_fold"),
        "kMDItemPath": .scalar(name: "items.path", type: .text, folded: "items.path_fold"),
        "kMDItemURL": .scalar(name: "items.url", type: .text, folded: nil),
        "kMDItemFSSize": .scalar(name: "items.size", type: .integer, folded: nil),
        "kMDItemFSCreationDate": .scalar(name: "items.created", type: .date, folded: nil),
        "kMDItemFSContentChangeDate": .scalar(name: "items.modified", type: .date, folded: nil),
        "kMDItemContentType": .scalar(name: "items.content_type", type: .text, folded: nil),
        "kMDItemContentTypeTree": .multiValued(table: "item_types", itemColumn: "item_id", valueColumn: "uti", type: .text),
        "kMDItemTextContent": .fullText(table: "item_text"),
        "NSMetadataUbiquitousItemDownloadingStatusKey": .scalar(name: SyncColumns.value(of: "downloading_status"), type: .text, folded: nil),
        "NSMetadataUbiquitousItemIsDownloadingKey": .scalar(name: SyncColumns.value(of: "is_downloading"), type: .boolean, folded: nil),
        "NSMetadataUbiquitousItemPercentDownloadedKey": .scalar(name: SyncColumns.value(of: "percent_downloaded"), type: .real, folded: nil),
        "NSMetadataUbiquitousItemIsUploadedKey": .scalar(name: SyncColumns.value(of: "is_uploaded"), type: .boolean, folded: nil),
        "NSMetadataUbiquitousItemIsUploadingKey": .scalar(name: SyncColumns.value(of: "is_uploading"), type: .boolean, folded: nil),
        "NSMetadataUbiquitousItemPercentUploadedKey": .scalar(name: SyncColumns.value(of: "percent_uploaded"), type: .real, folded: nil),
        "NSMetadataUbiquitousItemHasUnresolvedConflictsKey": .scalar(name: SyncColumns.value(of: "has_conflicts"), type: .boolean, folded: nil),
        "NSMetadataUbiquitousItemDownloadingErrorKey": .scalar(name: SyncColumns.value(of: "downloading_error"), type: .text, folded: nil),
        "NSMetadataUbiquitousItemUploadingErrorKey": .scalar(name: SyncColumns.value(of: "uploading_error"), type: .text, folded: nil),
        "NSMetadataUbiquitousItemContainerDisplayNameKey": .scalar(name: "items.container_display_name", type: .text, folded: nil),
    ]

    static let source = "items \(SyncColumns.join)"
    static let tieBreak = ["items.path ASC"]

    static let selectList = """
        items.id, items.rel, items.kind, items.fs_name, items.display_name, items.path, items.url, items.size,
        items.created, items.modified, items.content_type, \(SyncColumns.selectList),
        items.container_display_name, items.container, items.read_error,
        (SELECT group_concat(uti, char(31)) FROM (
            SELECT uti FROM type_trees WHERE type_trees.content_type = items.content_type ORDER BY position)) AS tree
        """

    static func attributes(_ row: Row, db: Database, includeText: Bool) throws -> [String: AttributeValue] {
        var values: [String: AttributeValue] = [
            "kMDItemFSName": .string(row["fs_name"]),
            "kMDItemDisplayName": .string(row["display_name"]),
            "kMDItemPath": .string(row["path"]),
            "kMDItemURL": .string(row["url"]),
            "kMDItemFSSize": .int(row["size"]),
            "kMDItemFSCreationDate": (row["created"] as Double?).map(AttributeValue.date) ?? .null,
            "kMDItemFSContentChangeDate": (row["modified"] as Double?).map(AttributeValue.date) ?? .null,
            "kMDItemContentType": .string(row["content_type"]),
            "kMDItemContentTypeTree": .array(((row["tree"] as String?) ?? "").split(separator: "\u{1F}").map { .string(String($0)) }),
            "NSMetadataUbiquitousItemDownloadingStatusKey": .string(row["downloading_status"]),
            "NSMetadataUbiquitousItemIsDownloadingKey": .bool(row["is_downloading"]),
            "NSMetadataUbiquitousItemPercentDownloadedKey": .double(row["percent_downloaded"]),
            "NSMetadataUbiquitousItemIsUploadedKey": .bool(row["is_uploaded"]),
            "NSMetadataUbiquitousItemIsUploadingKey": .bool(row["is_uploading"]),
            "NSMetadataUbiquitousItemPercentUploadedKey": .double(row["percent_uploaded"]),
            "NSMetadataUbiquitousItemHasUnresolvedConflictsKey": .bool(row["has_conflicts"]),
            "NSMetadataUbiquitousItemDownloadingErrorKey": (row["downloading_error"] as String?).map(AttributeValue.string) ?? .null,
            "NSMetadataUbiquitousItemUploadingErrorKey": (row["uploading_error"] as String?).map(AttributeValue.string) ?? .null,
            "NSMetadataUbiquitousItemContainerDisplayNameKey": .string(row["container_display_name"]),
        ]
        if includeText {
            let text = try String.fetchOne(db, sql: "SELECT content FROM item_text WHERE rowid = ?", arguments: [row["id"] as Int64])
            values["kMDItemTextContent"] = text.map(AttributeValue.string) ?? .null
        }
        return values
    }

    /// Every attribute but the full text, which costs a read per item and which a removed
    /// item no longer needs.
    static let namesWithoutText = MetadataAttribute.all.map(\.name).filter { $0 != MetadataAttribute.textContent.name }

    static func rawPath(_ row: Row) -> Data {
        // `path` is the readable rendering; the raw path is rebuilt from the URL, which
        // percent-encodes every byte that needs it.
        Data(RawPath(fileURLString: row["url"])?.bytes ?? [])
    }
}
