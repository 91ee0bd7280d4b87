import PredicateKit

/// The metadata index schema the daemon uses (table `items`), for golden SQL tests.
enum IndexSchema {
    static let schema = SQLSchema(table: "items", columns: [
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
        "NSMetadataUbiquitousItemIsUploadedKey": .scalar(name: "items.is_uploaded", type: .boolean, folded: nil),
        "NSMetadataUbiquitousItemPercentDownloadedKey": .scalar(name: "items.percent_downloaded", type: .real, folded: nil),
        "NSMetadataUbiquitousItemDownloadingStatusKey": .scalar(name: "items.downloading_status", type: .text, folded: nil),
    ])

    /// 2026-01-15T12:00:00Z, UTC.
    static let time = TimeContext(now: 790_171_200, secondsFromGMT: 0)
}
