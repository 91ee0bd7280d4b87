/// The fields of an entry that a merge compares one by one. `id` is what matches entries;
/// `modified` never clashes: a merged entry was last modified when its later side was.
public enum DiaryEntryField: String, Sendable, Hashable, CaseIterable {
    case title, body, created, tags, attachment
}

/// One entry that both sides changed in the same field(s) to different values. The merge
/// keeps the winner's values; `lost` is the loser's whole entry, so nothing is gone even
/// before the sync engine stores the loser's file as a conflict version.
public struct DiaryMergeClash: Sendable, Hashable {
    public var entryID: String
    /// The fields both sides set to different values, in `DiaryEntryField.allCases` order.
    public var fields: [DiaryEntryField]
    /// The entry as merged (the winner's values in `fields`).
    public var kept: DiaryEntry
    /// The loser's version of the entry.
    public var lost: DiaryEntry

    public init(entryID: String, fields: [DiaryEntryField], kept: DiaryEntry, lost: DiaryEntry) {
        self.entryID = entryID
        self.fields = fields
        self.kept = kept
        self.lost = lost
    }
}

/// What `DiaryMerge.merge` gives: the merged entries, in the order the merge defines, and
/// the clashes, in the order of their entries.
public struct DiaryMergeResult: Sendable, Hashable {
    public var entries: [DiaryEntry]
    public var clashes: [DiaryMergeClash]

    /// True when no field was set to different values on the two sides: the merged diary
    /// replaces both, and no conflict version is needed.
    public var isClean: Bool { clashes.isEmpty }

    public init(entries: [DiaryEntry], clashes: [DiaryMergeClash]) {
        self.entries = entries
        self.clashes = clashes
    }
}
