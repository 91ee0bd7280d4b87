import Diary
import KeyedArchive

/// Sample diaries for the tests.
enum DiaryFixtures {
    static let entries: [DiaryEntry] = [
        DiaryEntry(id: "0F8D2C4E-8A5B-4C1F-9E7D-2B3A4C5D6E7F", title: "First day", body: "It rained.\nThen it stopped.",
                   created: ReferenceDate(secondsSince2001: 785_000_000.25), modified: ReferenceDate(secondsSince2001: 785_000_100.5),
                   tags: ["weather", "home"], attachment: "photo.jpg"),
        DiaryEntry(id: "A1B2C3D4-0000-4000-8000-000000000002", title: "Zweiter Tag — ß, 日本, 🎉", body: "",
                   created: ReferenceDate(secondsSince2001: 0), modified: ReferenceDate(secondsSince2001: -1.5),
                   tags: [], attachment: nil),
        DiaryEntry(id: "A1B2C3D4-0000-4000-8000-000000000003", title: "$dollar title", body: String(repeating: "lorem ipsum ", count: 100),
                   created: ReferenceDate(secondsSince2001: 1e9), modified: ReferenceDate(secondsSince2001: 1e9),
                   tags: ["weather"], attachment: nil),
    ]

    /// `count` entries of about 1 KB of body each, deterministic.
    static func many(_ count: Int) -> [DiaryEntry] {
        (0..<count).map(entry)
    }

    private static func entry(_ index: Int) -> DiaryEntry {
        let id = "00000000-0000-4000-8000-" + String(String(100_000_000_000 + index).suffix(12))
        let body = String(repeating: "Body text \(index % 97). ", count: 60)
        let created = ReferenceDate(secondsSince2001: 700_000_000 + Double(index))
        let modified = ReferenceDate(secondsSince2001: created.secondsSince2001 + 0.5)
        let tags = index % 3 == 0 ? ["a", "b"] : ["c"]
        let attachment: String? = index % 10 == 0 ? "file\(index).png" : nil
        return DiaryEntry(id: id, title: "Entry \(index)", body: body, created: created, modified: modified, tags: tags, attachment: attachment)
    }

    /// The typed JSON of `Tests/interop/decode_check.py` for a diary: an array of dictionaries.
    static func typed(_ entries: [DiaryEntry]) -> JSONValue {
        func string(_ text: String) -> JSONValue { .object([("str", .string(text))]) }
        func pair(_ key: String, _ value: JSONValue) -> JSONValue { .array([string(key), value]) }
        return .object([("array", .array(entries.map { entry in
            var pairs = [
                pair("id", string(entry.id)), pair("title", string(entry.title)), pair("body", string(entry.body)),
                pair("created", .object([("date", .real(entry.created.secondsSince2001))])),
                pair("modified", .object([("date", .real(entry.modified.secondsSince2001))])),
                pair("tags", .object([("array", .array(entry.tags.map(string)))])),
            ]
            if let attachment = entry.attachment { pairs.append(pair("attachment", string(attachment))) }
            return .object([("dict", .array(pairs))])
        }))])
    }
}
