import Foundation
import Testing
import UbiquitySettings

/// `docs/config.sample.toml` must stay true: as shipped (all commented) it changes nothing, and
/// with its settings uncommented it parses and names every key.
@Suite("The sample configuration file")
struct SampleConfigTests {
    /// The sample, found from this source file (through the scratch-package symlinks, if any).
    static func sample() throws -> String {
        let here = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        let repository = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try String(contentsOf: repository.appending(path: "docs/config.sample.toml"), encoding: .utf8)
    }

    /// The sample with its settings uncommented: lines whose `#` is followed by no space.
    static func uncommented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard line.hasPrefix("#"), let next = line.dropFirst().first, next != " " else { return line }
            return line.dropFirst()
        }.joined(separator: "\n")
    }

    @Test func asShippedItChangesNothing() throws {
        var world = World()
        world.config(try Self.sample())
        var expected = try World().resolve()
        expected.configFile = World.defaultConfig
        #expect(try world.resolve() == expected)
    }

    @Test func uncommentedItParsesAndSetsEveryKey() throws {
        var world = World()
        world.config(Self.uncommented(try Self.sample()))
        let settings = try world.resolve()
        #expect(settings.root == "/home/ann/Ubiquity")
        #expect(settings.mirror == "/mnt/nas/ubiquity")
        #expect(settings.stateDirectory == "/home/ann/.local/state/ubiquity")
        #expect(settings.runtimeDirectory == "/run/user/1000/ubiquity")
        #expect(settings.logLevel == "info")
        #expect(settings.settleMilliseconds == 50)
        #expect(settings.ignorePatterns == ["*.bak", "build/"])
        #expect(settings.sync == SyncSettings())
        #expect(settings.deviceName == "laptop")
        #expect(settings.containerIDs.map(\.identifier) == [
            "iCloud.com.example.Diary", "iCloud.com.example.Notes", "iCloud.org.ubiquity.Default",
        ])
    }
}
