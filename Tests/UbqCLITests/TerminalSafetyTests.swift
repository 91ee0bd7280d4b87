import APIModel
import Diary
import KeyedArchive
import Testing

@testable import UbqCLI

/// What another device wrote into the mirror (its name) and what a file is called reach the
/// terminal escaped: a newline or an escape sequence in them cannot act on it.
@Suite struct TerminalSafetyTests {
    @Test func aDeviceNameCannotActOnTheTerminal() {
        let version = VersionInfo(
            id: "D:1", device: "D", deviceName: "laptop\u{1B}[2J\nfake line", date: "2026-11-27T00:00:00Z", kind: "file",
            sha256: nil, size: 3, current: false, conflict: true)
        let row = VersionRow.text(version)
        #expect(!row.contains("\u{1B}") && !row.contains("\n"), "\(row)")
        #expect(row.contains("laptop\\u{1b}[2J\\nfake line"), "\(row)")
    }

    /// A diary synced from elsewhere is a file like any other: its entries' ids and bodies
    /// reach the terminal escaped too, the body keeping its lines and tabs.
    @Test func aDiaryEntryCannotActOnTheTerminal() {
        let entry = DiaryEntry(
            id: "id\u{1B}]52;c;aGk=\u{07}", title: "t", body: "line one\n\tindented \u{1B}[2Jcleared",
            created: ReferenceDate(secondsSince2001: 0), modified: ReferenceDate(secondsSince2001: 0), tags: [], attachment: nil)
        for shown in [DiaryRendering.details(entry), DiaryRendering.table([entry])] {
            #expect(!shown.contains("\u{1B}") && !shown.contains("\u{07}"), "\(shown)")
        }
        #expect(DiaryRendering.details(entry).hasSuffix("line one\n\tindented \\u{1b}[2Jcleared"))
    }

    /// Messages quote names (`ubq: Documents/NAME has no versions`): escaped, with their own
    /// line breaks kept for a predicate error's caret line.
    @Test func aMessageKeepsItsLinesAndEscapesTheRest() {
        #expect(Table.terminalSafe("bad\u{1B}[31m.txt\n   ^ here\tthere", keepingLayout: true) == "bad\\u{1b}[31m.txt\n   ^ here\tthere")
        #expect(Table.terminalSafe("a\nb\tc") == "a\\nb\\tc")
    }
}
