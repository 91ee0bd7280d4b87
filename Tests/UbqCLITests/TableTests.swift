import Testing

@testable import UbqCLI

/// Columns line up on a terminal whatever the names: wide East Asian characters take two
/// columns, combining marks none.
@Suite struct TableTests {
    @Test func columnsLineUpWithWideAndCombiningCharacters() {
        let names = ["plain.txt", "日本語.txt", "cafe\u{301}.txt", "\u{301}mark.txt", "😀.txt"]
        let table = Table.render(header: ["NAME", "SIZE"], rows: names.map { [$0, "1 KB"] })
        let lines = table.split(separator: "\n").map(String.init)
        let sizeColumns = lines.map { line in TerminalColumns.of(String(line[..<line.range(of: "  ", options: .backwards)!.lowerBound])) }
        #expect(Set(sizeColumns).count == 1, "\n\(table)\n\(sizeColumns)")
    }

    /// A problem about a path thousands of bytes long keeps its start, its end and the
    /// reason after it; short words are left alone.
    @Test func aVeryLongWordIsCutInItsMiddleAndTheReasonStays() {
        let path = "Documents/" + Array(repeating: String(repeating: "d", count: 200), count: 20).joined(separator: "/") + "/deep.txt:"
        let problem = "\(path) File name too long; shorten a folder's name on the way"
        let shown = Table.shortened(problem)

        #expect(shown.hasPrefix("Documents/ddd") && shown.hasSuffix("ddd/deep.txt: File name too long; shorten a folder's name on the way"), "\(shown)")
        #expect(shown.contains("…(\(path.count - 120) characters)…"), "\(shown)")
        #expect(shown.count < 250, "\(shown.count)")
        #expect(Table.shortened("a short problem: nothing to cut") == "a short problem: nothing to cut")
    }

    @Test func widths() {
        #expect(TerminalColumns.of("abc") == 3)
        #expect(TerminalColumns.of("日本") == 4)
        #expect(TerminalColumns.of("e\u{301}") == 1)
    }
}
