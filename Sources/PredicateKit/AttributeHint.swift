/// The known metadata attribute an unknown name most likely meant, for the error that
/// refuses it: the same name in other letter case or without its `kMDItem` prefix, the
/// Spotlight attribute of the same meaning (`kMDItemContentModificationDate`, which macOS's
/// `mdfind` users write), or the constant whose value it is (`NSMetadataItemFSNameKey`:
/// a predicate names `kMDItemFSName`, as `%K` would put it).
enum AttributeHint {
    /// Spotlight and Foundation names with a known attribute of the same meaning.
    private static let equivalents: [String: String] = [
        "kMDItemContentModificationDate": "kMDItemFSContentChangeDate",
        "kMDItemContentCreationDate": "kMDItemFSCreationDate",
        "kMDItemLogicalSize": "kMDItemFSSize",
        "kMDItemPhysicalSize": "kMDItemFSSize",
        "NSMetadataItemFSNameKey": "kMDItemFSName",
        "NSMetadataItemDisplayNameKey": "kMDItemDisplayName",
        "NSMetadataItemPathKey": "kMDItemPath",
        "NSMetadataItemURLKey": "kMDItemURL",
        "NSMetadataItemFSSizeKey": "kMDItemFSSize",
        "NSMetadataItemFSCreationDateKey": "kMDItemFSCreationDate",
        "NSMetadataItemFSContentChangeDateKey": "kMDItemFSContentChangeDate",
        "NSMetadataItemContentTypeKey": "kMDItemContentType",
        "NSMetadataItemContentTypeTreeKey": "kMDItemContentTypeTree",
    ]

    /// The attribute of `known` that `name` most likely meant; nil when none is close.
    static func meant(by name: String, known: Set<String>) -> String? {
        if let equivalent = equivalents[name], known.contains(equivalent) { return equivalent }
        let folded = name.lowercased()
        return known.sorted().first { attribute in
            let lowered = attribute.lowercased()
            return lowered == folded || lowered == "kmditem" + folded
        }
    }
}
