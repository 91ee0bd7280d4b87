import KeyedArchive

/// The reference app's diary file: a keyed archive written with
/// `archiver.encode(entries, forKey: "Diary")`, that is `$top = {"Diary": UID}` where the UID
/// names an `NSArray` of `NSDictionary` entries (see `DiaryEntry` for their keys). There is no
/// `root` key: readers that insist on one (bpylist2's `unarchive`) must ask for `Diary`.
public enum DiaryArchive {
    public static let topKey = "Diary"
    /// The diary's file name in the app container's `Documents`.
    public static let fileName = "Diary.archive"

    /// The archive bytes of `entries` (binary by default, as the app writes them).
    public static func encode(_ entries: [DiaryEntry], format: PlistFormat = .binary) throws(ArchiveError) -> [UInt8] {
        try KeyedArchiver.encode(try graph(for: entries), format: format)
    }

    /// The entries of a diary file. An archive without a `Diary` key is an error that says so.
    public static func decode(_ bytes: [UInt8]) throws(ArchiveError) -> [DiaryEntry] {
        try entries(in: try KeyedUnarchiver.decode(bytes))
    }

    public static func graph(for entries: [DiaryEntry]) throws(ArchiveError) -> ObjectGraph {
        var graph = ObjectGraph()
        let list = try ArchiveEncoder().encode(entries, into: &graph)
        graph.top = [(key: topKey, value: list)]
        return graph
    }

    public static func entries(in graph: ObjectGraph) throws(ArchiveError) -> [DiaryEntry] {
        guard let list = graph.topValue(topKey) else {
            let keys = graph.top.map(\.key).joined(separator: ", ")
            throw ArchiveError(.invalidArchive, "not a diary: $top has no key '\(topKey)' (keys: \(keys))")
        }
        if list == .null { return [] }
        return try ArchiveDecoder().decode([DiaryEntry].self, from: list, in: graph)
    }
}
