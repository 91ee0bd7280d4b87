import Foundation
import Testing

/// Diary entries indexed by the real ubqd and found with `ubq ls --diary-entries`: by title,
/// body word, tag and date; an edit shows, a removed diary takes its entries along, a diary is
/// known by its content whatever its name, and a damaged one is a plain file and a warning.
@Suite struct DiaryIndexingTests {
    /// 2020-02-01 and 2024-06-01 (UTC), in seconds since 2001.
    static let winter2020 = 602_294_400.0
    static let summer2024 = 738_892_800.0

    /// A diary written as JSON of `nska-json-v1` and encoded by `ubq archive encode`, named
    /// without any hint that it is one.
    func writeJournal(_ harness: DaemonHarness, at path: String) throws {
        let json = """
            {"top": {"Diary": [
              {"id": "J-1", "title": "Snowed in", "body": "Baked bread all day.", "created": {"$date": \(Self.winter2020)},
               "modified": {"$date": \(Self.winter2020)}, "tags": ["home"]},
              {"id": "J-2", "title": "Sea swim", "body": "Cold water, warm sand.", "created": {"$date": \(Self.summer2024)},
               "modified": {"$date": \(Self.summer2024 + 60)}, "tags": ["sea", "summer"]}
            ]}}
            """
        let source = harness.base + "/journal.json"
        try Data(json.utf8).write(to: URL(fileURLWithPath: source))
        let result = try harness.ubq(["archive", "encode", source, path])
        guard result.status == 0 else { throw HarnessError("ubq archive encode failed: \(result.errorText)") }
    }

    @Test func entriesAreFoundByTitleBodyTagAndDateAndFollowEditsAndRemoval() throws {
        let harness = try DaemonHarness()
        try FileManager.default.createDirectory(atPath: harness.documents, withIntermediateDirectories: true)
        try writeJournal(harness, at: harness.documents + "/journal")
        try harness.start()
        let soup = try harness.diary(["add", "--title", "Tomato soup", "--body", "Simmer the tomatoes slowly.", "--tag", "food"])
        let walk = try harness.diary(["add", "--title", "Long walk", "--body", "Rain all afternoon; a heron on the river."])

        #expect(try harness.entryIDs(nil) == [soup, walk, "J-1", "J-2"])  // by diary path, then file order
        #expect(try harness.entryIDs(#"kMDItemTitle CONTAINS[c] "SOUP""#) == [soup])
        #expect(try harness.entryIDs(#"kMDItemTextContent CONTAINS[c] "heron""#) == [walk])
        #expect(try harness.entryIDs(#"kMDItemKeywords == "sea""#) == ["J-2"])
        #expect(try harness.entryIDs("kMDItemContentCreationDate < CAST(662688000, \"NSDate\")") == ["J-1"])
        #expect(try harness.entryIDs("kMDItemContentModificationDate BETWEEN {CAST(700000000, \"NSDate\"), CAST(740000000, \"NSDate\")}") == ["J-2"])
        #expect(try harness.entryIDs("kMDItemContentCreationDate > $time.today(-1)") == [soup, walk])

        // The diary files themselves: found by their entries' text, listed as files only.
        #expect(try harness.indexedItems(predicate: #"kMDItemTextContent CONTAINS[c] "tomato""#).keys.sorted() == [harness.documents + "/Diary.archive"])
        #expect(try harness.indexedItems(predicate: #"kMDItemTextContent CONTAINS "bread""#).keys.sorted() == [harness.documents + "/journal"])
        try harness.expectIndexMatchesDisk()

        let editor = "sed -i -e '1s/.*/Pumpkin soup/' -e 's/Simmer the tomatoes slowly./Roast the pumpkin./'"
        #expect(try harness.diary(["edit", soup], environment: ["EDITOR": editor]) == "saved \(soup)")
        #expect(try harness.entryIDs(#"kMDItemTitle CONTAINS[c] "tomato""#).isEmpty)
        #expect(try harness.entryIDs(#"kMDItemTextContent CONTAINS "tomatoes""#).isEmpty)
        #expect(try harness.entryIDs(#"kMDItemTitle == "Pumpkin soup""#) == [soup])
        #expect(try harness.entryIDs(#"kMDItemTextContent CONTAINS "pumpkin""#) == [soup])

        try FileManager.default.removeItem(atPath: harness.documents + "/Diary.archive")
        #expect(try harness.entryIDs(nil) == ["J-1", "J-2"])
        try FileManager.default.removeItem(atPath: harness.documents + "/journal")
        #expect(try harness.entryIDs(nil).isEmpty)
        try harness.expectIndexMatchesDisk()
    }

    @Test func entriesPrintAsATableAndCarryTheirDiarysPath() throws {
        let harness = try DaemonHarness()
        try harness.start()
        let id = try harness.diary(["add", "--title", "Chess club", "--body", "Lost with the Sicilian.", "--tag", "games"])
        let table = try harness.ubq(["ls", "--diary-entries", #"kMDItemTitle BEGINSWITH "Chess""#])
        #expect(table.status == 0, "\(table.errorText)")
        #expect(table.text.hasPrefix("DiaryEntryID"), "\(table.text)")
        #expect(table.text.contains(id) && table.text.contains("Chess club") && table.text.contains("games"))
        let entries = try harness.entryQuery(nil, attributes: "kMDItemPath,kMDItemTextContent,kMDItemKeywords")
        #expect(entries.count == 1)
        #expect(entries.first?["kMDItemPath"] as? String == harness.documents + "/Diary.archive")
        #expect(entries.first?["kMDItemTextContent"] as? String == "Lost with the Sicilian.")
        #expect(entries.first?["kMDItemKeywords"] as? [String] == ["games"])

        let wrong = try harness.ubq(["ls", "--diary-entries", "--attrs", "kMDItemFSSize"])
        #expect(wrong.status != 0)
        #expect(wrong.errorText.contains("ubqDiaryEntryID"))
        let unknown = try harness.ubq(["ls", "--diary-entries", "kMDItemFSName == \"x\""])
        #expect(unknown.status != 0)
    }

    @Test func aDamagedDiaryIsIndexedAsAPlainFileWithAWarning() throws {
        let harness = try DaemonHarness()
        try harness.start()
        try harness.diary(["add", "--title", "Good entry"])
        let source = harness.base + "/bad.json"
        try Data(#"{"top": {"Diary": [{"title": "no id, no dates"}]}}"#.utf8).write(to: URL(fileURLWithPath: source))
        #expect(try harness.ubq(["archive", "encode", source, harness.documents + "/Other.archive"]).status == 0)
        try harness.shell("printf 'not an archive' > Diary.archive")

        try harness.expectIndexMatchesDisk()
        #expect(try harness.entryIDs(nil).isEmpty)
        let log = harness.log()
        #expect(log.contains(harness.documents + "/Other.archive: indexed as a plain file"), "\(log)")
        #expect(log.contains(harness.documents + "/Diary.archive: indexed as a plain file"), "\(log)")
        #expect(try harness.ubq(["status"]).status == 0)
    }
}

extension DaemonHarness {
    /// `ubq ls --diary-entries --json`: one dictionary of attributes per entry.
    func entryQuery(_ predicate: String?, attributes: String) throws -> [[String: Any]] {
        var arguments = ["ls", "--diary-entries", "--scope", "all", "--json", "--attrs", attributes]
        if let predicate { arguments.append(predicate) }
        let result = try ubq(arguments)
        guard result.status == 0 else { throw HarnessError("ubq \(arguments) failed (\(result.status)): \(result.errorText)\nubqd log:\n\(log())") }
        guard let entries = try JSONSerialization.jsonObject(with: result.output) as? [[String: Any]] else {
            throw HarnessError("ubq ls --diary-entries --json did not print an array: \(result.text)")
        }
        return entries
    }

    /// The ids of the entries that match, in the listing's order (diary path, then file order).
    func entryIDs(_ predicate: String?) throws -> [String] {
        try entryQuery(predicate, attributes: "ubqDiaryEntryID").compactMap { $0["ubqDiaryEntryID"] as? String }
    }
}
