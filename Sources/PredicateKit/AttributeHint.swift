/// The known metadata attribute an unknown name most likely meant, for the error that
/// refuses it: the same name in other letter case or without its `kMDItem` prefix, or the
/// Spotlight attribute of the same meaning (`kMDItemContentModificationDate`, which macOS's
/// `mdfind` users write). The constants' names (`NSMetadataItemFSNameKey`) need no hint:
/// a query takes them as aliases (`MetadataAttribute.canonicalName`).
enum AttributeHint {
    /// Spotlight names with a known attribute of the same meaning.
    private static let equivalents: [String: String] = [
        "kMDItemContentModificationDate": "kMDItemFSContentChangeDate",
        "kMDItemContentCreationDate": "kMDItemFSCreationDate",
        "kMDItemLogicalSize": "kMDItemFSSize",
        "kMDItemPhysicalSize": "kMDItemFSSize",
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
