import Foundation
import Testing

@testable import Ubiquity

/// A version's date keeps the microseconds the API gives: an app compares it with the
/// file's own date (`attributesOfItem`), which Foundation's ISO 8601 formatter would cut
/// to the millisecond.
@Suite struct FileVersionDateTests {
    @Test(arguments: [
        ("2026-11-22T08:55:19.123456Z", 1_795_337_719.123456), ("2026-11-22T08:55:19Z", 1_795_337_719),
        ("1965-03-03T01:02:03.499999Z", -152_492_276.500001),
    ])
    func anAPIDateKeepsItsMicroseconds(text: String, unixSeconds: Double) throws {
        let date = try #require(FileVersion.date(text))
        #expect(abs(date.timeIntervalSince1970 - unixSeconds) < 0.000_000_5, "\(date.timeIntervalSince1970)")
    }

    @Test(arguments: ["", "Z", ".Z", "2026-11-22T08:55:19.Z", "2026-11-22T08:55:19.123456", "2026-11-22T08:55:19.abcZ", "yesterday"])
    func anythingElseIsNoDate(text: String) {
        #expect(FileVersion.date(text) == nil)
    }
}
