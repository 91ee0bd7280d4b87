/// The metadata attributes the index keeps, by the string values of Apple's constants
/// (`kMDItemFSName`), with the NSMetadata constant names accepted as aliases
/// (`NSMetadataItemFSNameKey`).
public struct MetadataAttribute: Sendable, Hashable {
    public enum ValueType: Sendable { case string, integer, real, bool, date, stringList }

    public var name: String
    public var alias: String?
    public var type: ValueType

    public init(_ name: String, alias: String? = nil, _ type: ValueType) {
        self.name = name
        self.alias = alias
        self.type = type
    }
}

extension MetadataAttribute {
    public static let fsName = MetadataAttribute("kMDItemFSName", alias: "NSMetadataItemFSNameKey", .string)
    public static let displayName = MetadataAttribute("kMDItemDisplayName", alias: "NSMetadataItemDisplayNameKey", .string)
    public static let path = MetadataAttribute("kMDItemPath", alias: "NSMetadataItemPathKey", .string)
    public static let url = MetadataAttribute("kMDItemURL", alias: "NSMetadataItemURLKey", .string)
    public static let fsSize = MetadataAttribute("kMDItemFSSize", alias: "NSMetadataItemFSSizeKey", .integer)
    public static let creationDate = MetadataAttribute("kMDItemFSCreationDate", alias: "NSMetadataItemFSCreationDateKey", .date)
    public static let contentChangeDate = MetadataAttribute("kMDItemFSContentChangeDate", alias: "NSMetadataItemFSContentChangeDateKey", .date)
    public static let contentType = MetadataAttribute("kMDItemContentType", alias: "NSMetadataItemContentTypeKey", .string)
    public static let contentTypeTree = MetadataAttribute("kMDItemContentTypeTree", alias: "NSMetadataItemContentTypeTreeKey", .stringList)
    public static let textContent = MetadataAttribute("kMDItemTextContent", .string)

    public static let downloadingStatus = ubiquitous("DownloadingStatusKey", .string)
    public static let isDownloading = ubiquitous("IsDownloadingKey", .bool)
    public static let percentDownloaded = ubiquitous("PercentDownloadedKey", .real)
    public static let isUploaded = ubiquitous("IsUploadedKey", .bool)
    public static let isUploading = ubiquitous("IsUploadingKey", .bool)
    public static let percentUploaded = ubiquitous("PercentUploadedKey", .real)
    public static let hasUnresolvedConflicts = ubiquitous("HasUnresolvedConflictsKey", .bool)
    public static let downloadingError = ubiquitous("DownloadingErrorKey", .string)
    public static let uploadingError = ubiquitous("UploadingErrorKey", .string)
    public static let containerDisplayName = ubiquitous("ContainerDisplayNameKey", .string)

    /// The ubiquity keys are named by their constants' own names (their string values).
    private static func ubiquitous(_ suffix: String, _ type: ValueType) -> MetadataAttribute {
        MetadataAttribute("NSMetadataUbiquitousItem" + suffix, type)
    }

    /// Every attribute, in the order `ubq mdls` prints them.
    public static let all: [MetadataAttribute] = [
        fsName, displayName, path, url, fsSize, creationDate, contentChangeDate, contentType,
        contentTypeTree, textContent, downloadingStatus, isDownloading, percentDownloaded,
        isUploaded, isUploading, percentUploaded, hasUnresolvedConflicts, downloadingError,
        uploadingError, containerDisplayName,
    ]

    /// The attributes a listing shows unless asked for others.
    public static let listingDefaults: [MetadataAttribute] = [fsSize, contentChangeDate, contentType, path]

    private static let byName: [String: MetadataAttribute] = {
        var table: [String: MetadataAttribute] = [:]
        for attribute in all + diaryEntryAttributes {
            table[attribute.name] = attribute
            if let alias = attribute.alias { table[alias] = attribute }
        }
        return table
    }()

    /// Looks an attribute up by its name or its alias (an item's or a diary entry's).
    public static func named(_ name: String) -> MetadataAttribute? { byName[name] }

    /// The canonical name for `name` if it names an attribute, else `name` unchanged.
    public static func canonicalName(_ name: String) -> String { byName[name]?.name ?? name }
}
