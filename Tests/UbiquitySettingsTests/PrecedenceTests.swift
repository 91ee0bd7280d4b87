import Testing
import UbiquitySettings

/// Where a test puts a value. A value at one level must beat every level below it.
enum Level: Int, CaseIterable, Sendable {
    case flag, environment, file, defaults
}

/// One setting that can be given as a flag, an environment variable and a file key, with a
/// distinct value at each level and the value expected from each.
struct LayeredSetting: Sendable, CustomStringConvertible {
    var description: String
    var environmentVariable: String
    var fileKey: String
    var setFlag: @Sendable (inout SettingsOverrides, String) -> Void
    var read: @Sendable (Settings) -> String?
    var values: [Level: String]
    var defaultValue: String?

    static func path(
        _ name: String, _ variable: String, _ key: String, default defaultValue: String?,
        flag: @escaping @Sendable (inout SettingsOverrides, String) -> Void,
        read: @escaping @Sendable (Settings) -> String?
    ) -> LayeredSetting {
        LayeredSetting(
            description: name, environmentVariable: variable, fileKey: key, setFlag: flag, read: read,
            values: [.flag: "/from/flag/\(key)", .environment: "/from/env/\(key)", .file: "/from/file/\(key)"],
            defaultValue: defaultValue)
    }

    static let all: [LayeredSetting] = [
        .path("root", "UBQ_ROOT", "root", default: "/home/ann/Ubiquity", flag: { $0.root = $1 }, read: \.root),
        .path("mirror", "UBQ_MIRROR", "mirror", default: nil, flag: { $0.mirror = $1 }, read: \.mirror),
        .path(
            "state", "UBQ_STATE_DIR", "state_dir", default: "/home/ann/.local/state/ubiquity",
            flag: { $0.stateDirectory = $1 }, read: \.stateDirectory),
        .path(
            "runtime", "UBQ_RUNTIME_DIR", "runtime_dir", default: "/tmp/ubiquity-1000",
            flag: { $0.runtimeDirectory = $1 }, read: \.runtimeDirectory),
        LayeredSetting(
            description: "log level", environmentVariable: "UBQ_LOG_LEVEL", fileKey: "log_level",
            setFlag: { $0.logLevel = $1 }, read: \.logLevel,
            values: [.flag: "trace", .environment: "warning", .file: "error"], defaultValue: "info"),
    ]

    /// A world holding this setting's value at `level` and at every level below it.
    func world(from level: Level) -> World {
        var world = World()
        for below in Level.allCases where below.rawValue >= level.rawValue {
            guard let value = values[below] else { continue }
            switch below {
            case .flag: setFlag(&world.overrides, value)
            case .environment: world.environment[environmentVariable] = value
            case .file: world.config("\(fileKey) = \"\(value)\"\n")
            case .defaults: break
            }
        }
        return world
    }
}

@Suite("Each setting takes the value of the highest level that gives one")
struct PrecedenceTests {
    @Test(arguments: LayeredSetting.all, Level.allCases)
    func highestLevelWins(setting: LayeredSetting, level: Level) throws {
        let settings = try setting.world(from: level).resolve()
        let expected = level == .defaults ? setting.defaultValue : setting.values[level]
        #expect(setting.read(settings) == expected)
    }

    @Test func flagContainersReplaceTheFileListAndKeepTheDefault() throws {
        var world = World()
        world.config("[[container]]\nid = \"iCloud.com.example.FromFile\"\n")
        world.overrides.containers = ["iCloud.com.example.Flag", "iCloud.com.example.Flag"]
        let ids = try world.resolve().containerIDs.map(\.identifier)
        #expect(ids == ["iCloud.com.example.Flag", "iCloud.org.ubiquity.Default"])
    }

    @Test func fileContainersAddToTheDefault() throws {
        var world = World()
        world.config("[[container]]\nid = \"iCloud.com.example.B\"\n[[container]]\nid = \"iCloud.com.example.A\"\n")
        let ids = try world.resolve().containerIDs.map(\.identifier)
        #expect(ids == ["iCloud.com.example.A", "iCloud.com.example.B", "iCloud.org.ubiquity.Default"])
    }

    @Test func withNothingConfiguredOnlyTheDefaultContainerExists() throws {
        #expect(try World().resolve().containerIDs == [.defaultContainer])
    }

    @Test func settleAndIgnoreComeFromTheFileElseDefaults() throws {
        var world = World()
        #expect(try world.resolve().settleMilliseconds == 50)
        #expect(try world.resolve().ignorePatterns == [])
        world.config("settle_ms = 200\nignore = [\"*.bak\", \"build/\"]\n")
        #expect(try world.resolve().settleMilliseconds == 200)
        #expect(try world.resolve().ignorePatterns == ["*.bak", "build/"])
    }

    enum ConfigSource: CaseIterable, Sendable { case flag, environment, xdgConfigHome, home }

    @Test(arguments: ConfigSource.allCases)
    func configFileLocationFollowsPrecedence(source: ConfigSource) throws {
        var world = World()
        let candidates: [(ConfigSource, String)] = [
            (.flag, "/etc/flag.toml"), (.environment, "/etc/env.toml"),
            (.xdgConfigHome, "/xdg/ubiquity/config.toml"), (.home, World.defaultConfig),
        ]
        for (candidate, path) in candidates {
            world.files[path] = "root = \"/root/of/\(candidate)\"\n"
        }
        let order = ConfigSource.allCases
        for candidate in order[order.firstIndex(of: source)!...] {
            switch candidate {
            case .flag: world.overrides.configFile = "/etc/flag.toml"
            case .environment: world.environment["UBQ_CONFIG"] = "/etc/env.toml"
            case .xdgConfigHome: world.environment["XDG_CONFIG_HOME"] = "/xdg"
            case .home: break
            }
        }
        let settings = try world.resolve()
        let expectedPath = candidates.first { $0.0 == source }!.1
        #expect(settings.configFile == expectedPath)
        #expect(settings.root == "/root/of/\(source)")
    }

    @Test func aMissingDefaultConfigFileIsFine() throws {
        let settings = try World().resolve()
        #expect(settings.configFile == nil)
        #expect(settings.root == "/home/ann/Ubiquity")
    }
}
