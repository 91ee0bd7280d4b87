import Testing
import UbiquitySettings

/// What a reloaded configuration changed, key by key (ubqd applies some live and asks for a
/// restart for the rest).
@Suite struct ChangesTests {
    static func resolve(_ config: String) throws -> Settings {
        var world = World()
        world.config(config)
        return try world.resolve()
    }

    @Test func identicalSettingsHaveNoChanges() throws {
        let settings = try Self.resolve("log_level = \"debug\"\nignore = [\"*.bak\"]\n")
        #expect(settings.changes(to: settings).isEmpty)
    }

    @Test(arguments: [
        ("log_level = \"debug\"\n", SettingChange(key: .logLevel, old: "info", new: "debug")),
        ("ignore = [\"*.bak\", \"build/\"]\n", SettingChange(key: .ignore, old: "none", new: "\"*.bak\", \"build/\"")),
        ("settle_ms = 200\n", SettingChange(key: .settle, old: "50 ms", new: "200 ms")),
        ("root = \"/data/Ubiquity\"\n", SettingChange(key: .root, old: "/home/ann/Ubiquity", new: "/data/Ubiquity")),
        ("mirror = \"/mnt/nas\"\n", SettingChange(key: .mirror, old: "none", new: "/mnt/nas")),
        ("state_dir = \"/data/state\"\n", SettingChange(key: .stateDirectory, old: "/home/ann/.local/state/ubiquity", new: "/data/state")),
        ("runtime_dir = \"/run/ubq\"\n", SettingChange(key: .runtimeDirectory, old: "/tmp/ubiquity-1000", new: "/run/ubq")),
        ("[[container]]\nid = \"iCloud.com.example.Diary\"\n", SettingChange(
            key: .containers, old: "iCloud.org.ubiquity.Default",
            new: "iCloud.com.example.Diary, iCloud.org.ubiquity.Default")),
    ])
    func eachKeyIsReportedAlone(config: String, expected: SettingChange) throws {
        let before = try Self.resolve("")
        let after = try Self.resolve(config)
        #expect(before.changes(to: after) == [expected])
    }

    @Test func severalChangesComeInKeyOrderAndReadWell() throws {
        let before = try Self.resolve("log_level = \"warning\"\n")
        let after = try Self.resolve("mirror = \"/mnt/nas\"\nlog_level = \"trace\"\n")
        let changes = before.changes(to: after)
        #expect(changes.map(\.key) == [.mirror, .logLevel])
        #expect(changes.map(\.description) == ["mirror (none → /mnt/nas)", "log_level (warning → trace)"])
    }
}
