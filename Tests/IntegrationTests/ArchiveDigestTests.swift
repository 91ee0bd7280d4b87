import Foundation
import Testing

/// `ubq archive decode --json` prints the header fields of `nska-json-v1` (`sha256`, `size`,
/// `plist_format`) exactly as every `expected/` file of the fixtures has them, damaged
/// archives included.
@Suite struct ArchiveDigestTests {
    static let archives = CommandTests.fixtures.appendingPathComponent("archives")
    static let names: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: archives.path)) ?? []).sorted()

    @Test func fixtureArchivesAreFound() {
        #expect(Self.names.count >= 78, "fixtures not found at \(Self.archives.path)")
    }

    @Test(arguments: names)
    func decodeJSONHasTheExpectedDigestSizeAndFormat(name: String) throws {
        let harness = try DaemonHarness()
        let result = try harness.ubq(["archive", "decode", "--json", Self.archives.appendingPathComponent(name).path])
        let ours = try #require(try JSONSerialization.jsonObject(with: result.output) as? [String: Any], "\(result.text)")
        let expectedData = try Data(contentsOf: CommandTests.fixtures.appendingPathComponent("expected/\(name).json"))
        let expected = try #require(try JSONSerialization.jsonObject(with: expectedData) as? [String: Any])
        let digest = try #require(ours["sha256"] as? String, "no sha256 in \(result.text.prefix(300))")
        #expect(digest == expected["sha256"] as? String)
        #expect(ours["size"] as? Int == expected["size"] as? Int)
        #expect(ours["plist_format"] as? String == expected["plist_format"] as? String)
        #expect(result.status == (expected["error"] is String ? 1 : 0))
    }

    @Test func theDigestFollowsTheFileName() throws {
        let harness = try DaemonHarness()
        let result = try harness.ubq(["archive", "decode", "--json", Self.archives.appendingPathComponent("bpylist2-simple_archive.plist").path])
        let text = result.text
        let file = try #require(text.range(of: "\"file\""))
        let sha = try #require(text.range(of: "\"sha256\""))
        let size = try #require(text.range(of: "\"size\""))
        #expect(file.lowerBound < sha.lowerBound && sha.lowerBound < size.lowerBound)
    }
}
