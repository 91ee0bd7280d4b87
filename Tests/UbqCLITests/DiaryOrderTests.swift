import Diary
import KeyedArchive
import Testing

@testable import UbqCLI

/// `ubq diary list` and `export` print entries oldest first, as their help says: the file's
/// order is not that once two devices' additions were merged.
@Suite struct DiaryOrderTests {
    static func entry(_ title: String, at seconds: Double) -> DiaryEntry {
        let date = ReferenceDate(secondsSince2001: 800_000_000 + seconds)
        return DiaryEntry(id: "ID-" + title, title: title, body: "", created: date, modified: date)
    }

    @Test func twoDevicesAdditionsMergedAreListedOldestFirst() {
        let shared = Self.entry("shared", at: 0)
        let onA = Self.entry("added on a", at: 10)
        let onB = Self.entry("added on b", at: 20)
        let merged = DiaryMerge.merge(base: [shared], winner: [shared, onB], loser: [shared, onA]).entries
        #expect(merged.map(\.title) == ["shared", "added on b", "added on a"], "the winner's addition first in the file")
        #expect(DiaryRendering.chronological(merged).map(\.title) == ["shared", "added on a", "added on b"])
    }

    @Test func entriesOfOneMomentKeepTheFilesOrder() {
        let entries = [Self.entry("later", at: 5), Self.entry("second", at: 1), Self.entry("first", at: 1)]
        #expect(DiaryRendering.chronological(entries).map(\.title) == ["second", "first", "later"])
    }
}
