import Foundation

/// Where the shared fixtures are: `<repo>/../shared`, the repo root being three levels above
/// this file (`<repo>/Tests/KeyedArchiveTests/FixturePaths.swift`).
enum FixturePaths {
    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let keyedArchive = repoRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures/keyedarchive")
    static let archives = keyedArchive.appendingPathComponent("archives")
    static let expected = keyedArchive.appendingPathComponent("expected")

    static var archiveNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: archives.path)) ?? []).sorted()
    }

    static func archiveBytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: archives.appendingPathComponent(name)))
    }

    static func expectedText(_ name: String) throws -> String {
        try String(contentsOf: expected.appendingPathComponent(name + ".json"), encoding: .utf8)
    }
}
