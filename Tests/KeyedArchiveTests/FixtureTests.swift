import KeyedArchive
import Testing

/// Every archive of `shared/fixtures/keyedarchive/archives` renders to its `expected/` JSON,
/// or fails with an error where the expected file has one.
@Suite struct FixtureTests {
    static let comparedFields = ["plist_format", "archiver", "version", "object_count", "top_keys", "top", "shared"]

    @Test func fixtureFolderIsFound() {
        #expect(FixturePaths.archiveNames.count >= 78, "fixtures not found at \(FixturePaths.archives.path)")
    }

    @Test(arguments: FixturePaths.archiveNames)
    func archiveRendersToExpectedJSON(name: String) throws {
        let expected = try JSONParser.parse(try FixturePaths.expectedText(name))
        let actual = ArchiveJSON.document(archiveBytes: try FixturePaths.archiveBytes(name), fileName: name)
        if case .string(let reason)? = expected["error"] {
            guard case .string = actual["error"] else {
                Issue.record("\(name) should fail (\(reason)) but decoded")
                return
            }
            #expect(actual["plist_format"] == expected["plist_format"])
            return
        }
        #expect(actual["error"] == .null, "\(name): \(actual["error"].map { $0.serialized(indent: 0) } ?? "")")
        for field in Self.comparedFields {
            let difference = JSONMatching.difference(expected[field] ?? .null, actual[field] ?? .null, path: field)
            #expect(difference == nil, "\(name): \(difference ?? "")")
        }
    }

    @Test(arguments: FixturePaths.archiveNames)
    func renderedTextParsesBackToTheSameDocument(name: String) throws {
        let bytes = try FixturePaths.archiveBytes(name)
        let text = ArchiveJSON.render(archiveBytes: bytes, fileName: name)
        #expect(try JSONParser.parse(text) == ArchiveJSON.document(archiveBytes: bytes, fileName: name))
    }
}
