/// What the index keeps of one diary entry (the reference app's `DiaryEntry`), so entries
/// can be searched one by one. This target does not read archives: `Indexing` turns the
/// decoded entries into these records.
public struct DiaryEntryRecord: Sendable, Equatable {
    /// The entry's stable id (a UUID string).
    public var id: String
    public var title: String
    public var body: String
    /// Seconds since 2001-01-01, as NSDate counts.
    public var created: Double
    public var modified: Double
    public var tags: [String]

    public init(id: String, title: String, body: String, created: Double, modified: Double, tags: [String]) {
        self.id = id
        self.title = title
        self.body = body
        self.created = created
        self.modified = modified
        self.tags = tags
    }
}
