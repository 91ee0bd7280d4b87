import KeyedArchive

/// One entry of the reference app's diary.
///
/// Archived as an `NSDictionary` with the keys of `CodingKeys`: `id` (a UUID string, stable
/// across edits, the key of entry-by-entry merges), `title`, `body`, `created` and `modified`
/// (`NSDate`), `tags` (an `NSArray` of strings) and, when there is one, `attachment` (a file
/// name next to the diary; the key is left out when there is none, as an `NSDictionary`
/// cannot hold nil).
public struct DiaryEntry: Codable, Hashable, Sendable, Identifiable {
    public var id: String
    public var title: String
    public var body: String
    public var created: ReferenceDate
    public var modified: ReferenceDate
    public var tags: [String]
    public var attachment: String?

    public init(id: String, title: String, body: String, created: ReferenceDate, modified: ReferenceDate,
                tags: [String] = [], attachment: String? = nil) {
        self.id = id
        self.title = title
        self.body = body
        self.created = created
        self.modified = modified
        self.tags = tags
        self.attachment = attachment
    }

    /// A new entry with a fresh random id, created and modified at `now`.
    public init(title: String, body: String, now: ReferenceDate, tags: [String] = [], attachment: String? = nil) {
        var generator = SystemRandomNumberGenerator()
        self.init(id: Self.makeID(using: &generator), title: title, body: body, created: now, modified: now,
                  tags: tags, attachment: attachment)
    }

    enum CodingKeys: String, CodingKey {
        case id, title, body, created, modified, tags, attachment
    }

    /// Strict on what identifies and dates an entry; lenient where an older or hand-made file
    /// may leave a key out (no `tags`: none; no `modified`: the creation date).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        title = try container.decodeIfPresent(String.self, forKey: .title) ?? ""
        body = try container.decodeIfPresent(String.self, forKey: .body) ?? ""
        created = try container.decode(ReferenceDate.self, forKey: .created)
        modified = try container.decodeIfPresent(ReferenceDate.self, forKey: .modified) ?? created
        tags = try container.decodeIfPresent([String].self, forKey: .tags) ?? []
        attachment = try container.decodeIfPresent(String.self, forKey: .attachment)
    }

    /// A random (version 4) UUID in the upper-case form `NSUUID.uuidString` gives.
    public static func makeID<G: RandomNumberGenerator>(using generator: inout G) -> String {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let digits = Array("0123456789ABCDEF")
        var text = ""
        for (index, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(index) { text += "-" }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return text
    }
}
