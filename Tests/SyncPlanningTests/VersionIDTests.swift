import SyncPlanning
import Testing

@Suite("Version ids read from DEVICE:SEQUENCE")
struct VersionIDTests {
    @Test(arguments: [
        ("3f2a9c0d1e4b5a67:1", "3f2a9c0d1e4b5a67", 1),
        ("dev:42", "dev", 42),
        ("a:b:7", "a:b", 7),  // the last colon ends the device
        ("dev:18446744073709551615", "dev", UInt64.max),
        ("dévice:3", "dévice", 3),
    ] as [(String, String, UInt64)])
    func wellFormedIdsAreRead(text: String, device: String, sequence: UInt64) throws {
        let id = try #require(VersionID(text))
        #expect(id.device == device)
        #expect(id.sequence == sequence)
        #expect(id.description == text)
    }

    @Test(arguments: [
        "", "dev", "dev:", ":5", "dev:5x", "dev: 5", "dev:+5", "dev:-1", "dev:1.0",
        "dev:18446744073709551616",  // one past UInt64.max
    ])
    func anythingElseIsRefused(text: String) {
        #expect(VersionID(text) == nil)
    }
}
