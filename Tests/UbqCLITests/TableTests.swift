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

    @Test func widths() {
        #expect(TerminalColumns.of("abc") == 3)
        #expect(TerminalColumns.of("日本") == 4)
        #expect(TerminalColumns.of("e\u{301}") == 1)
    }
}
