/// The attributes of a diary entry, as `ubq ls --diary-entries` queries and prints them.
/// Where Spotlight has an attribute for the same thing (a document's title, its keywords,
/// the dates of its content) the entry uses it; what only an entry has is named `ubq…`.
extension MetadataAttribute {
    public static let title = MetadataAttribute("kMDItemTitle", alias: "NSMetadataItemTitleKey", .string)
    public static let contentCreationDate = MetadataAttribute(
        "kMDItemContentCreationDate", alias: "NSMetadataItemContentCreationDateKey", .date)
    public static let contentModificationDate = MetadataAttribute(
        "kMDItemContentModificationDate", alias: "NSMetadataItemContentModificationDateKey", .date)
    public static let keywords = MetadataAttribute("kMDItemKeywords", alias: "NSMetadataItemKeywordsKey", .stringList)
    /// The entry's stable id (a UUID string): what `ubq diary show` takes.
    public static let diaryEntryID = MetadataAttribute("ubqDiaryEntryID", .string)

    /// Every attribute of an entry: its id, title, dates, tags (`kMDItemKeywords`), body
    /// (`kMDItemTextContent`, full text), and the path of the diary file that holds it.
    public static let diaryEntryAttributes: [MetadataAttribute] = [
        diaryEntryID, title, contentCreationDate, contentModificationDate, keywords, textContent, path,
    ]

    /// The attributes a listing of entries shows unless asked for others.
    public static let diaryEntryListingDefaults: [MetadataAttribute] = [
        diaryEntryID, contentCreationDate, title, keywords, path,
    ]
}

/// What a metadata query lists: items (files and folders, NSMetadataQuery's results), or
/// the entries of the diaries among them.
public enum QuerySubject: String, Codable, Sendable, CaseIterable {
    case items
    case diaryEntries

    /// The attributes its predicates, sort keys and answers may name.
    public var attributes: [MetadataAttribute] {
        switch self {
        case .items: MetadataAttribute.all
        case .diaryEntries: MetadataAttribute.diaryEntryAttributes
        }
    }

    public var listingDefaults: [MetadataAttribute] {
        switch self {
        case .items: MetadataAttribute.listingDefaults
        case .diaryEntries: MetadataAttribute.diaryEntryListingDefaults
        }
    }

    /// The API route that runs such a query.
    public var route: String {
        switch self {
        case .items: Route.query
        case .diaryEntries: Route.diaryEntryQuery
        }
    }

    /// The attribute of this subject named `name` (or its alias), if it has one.
    public func attribute(named name: String) -> MetadataAttribute? {
        MetadataAttribute.named(name).flatMap { attributes.contains($0) ? $0 : nil }
    }
}
