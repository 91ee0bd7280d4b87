import APIModel
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
}
