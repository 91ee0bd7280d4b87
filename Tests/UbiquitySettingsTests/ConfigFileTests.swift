import Testing
import UbiquitySettings

@Suite("A bad configuration file is an error naming the file, the key and the fix")
struct ConfigFileTests {
    struct Case: Sendable, CustomStringConvertible {
        var description: String
        var text: String
        var code: SettingsError.Code
        var key: String?
        var line: Int?
        var mentions: [String] = []
    }

    static let cases: [Case] = [
        Case(
            description: "syntax error", text: "root = \"/a\"\nmirror = = \"/b\"\n",
            code: .syntax, line: 2, mentions: ["syntax error"]),
        Case(
            description: "unterminated string", text: "# comment\n\nroot = \"/a\n",
            code: .syntax, line: 3),
        Case(
            description: "typo", text: "log_level = \"info\"\nrot = \"/a\"\n",
            code: .unknownKey, key: "rot", line: 2, mentions: ["'rot' (did you mean 'root'?)"]),
        Case(
            description: "containers as a plain array", text: "containers = [\"iCloud.a.b\"]\n",
            code: .unknownKey, key: "containers", line: 1, mentions: ["[[container]]"]),
        Case(
            description: "unknown key in a container table",
            text: "[[container]]\nid = \"iCloud.a.b\"\nname = \"B\"\n",
            code: .unknownKey, key: "name", line: 3, mentions: ["[[container]]"]),
        Case(
            description: "path as a number", text: "\nroot = 42\n",
            code: .wrongType, key: "root", line: 2, mentions: ["a string", "an integer"]),
        Case(
            description: "settle as a string", text: "settle_ms = \"50\"\n",
            code: .wrongType, key: "settle_ms", line: 1, mentions: ["an integer", "a string"]),
        Case(
            description: "ignore as a string", text: "ignore = \"*.bak\"\n",
            code: .wrongType, key: "ignore", line: 1, mentions: ["array of strings"]),
        Case(
            description: "container as a single table", text: "[container]\nid = \"iCloud.a.b\"\n",
            code: .wrongType, key: "container", line: 1, mentions: ["[[container]]"]),
        Case(
            description: "container without id", text: "[[container]]\n",
            code: .invalidValue, key: "container", line: 1, mentions: ["id = "]),
        Case(
            description: "second container id invalid",
            text: "[[container]]\nid = \"iCloud.a.b\"\n\n[[container]]\nid = \"iCloud/evil\"\n",
            code: .invalidContainerID, key: "id", line: 5, mentions: ["'/'"]),
        Case(
            description: "ignore holding a number", text: "ignore = [\"*.bak\", 3]\n",
            code: .wrongType, key: "ignore", line: 1, mentions: ["element 2 is an integer"]),
        Case(
            description: "log level unknown", text: "log_level = \"verbose\"\n",
            code: .invalidValue, key: "log_level", line: 1, mentions: ["trace, debug, info"]),
        Case(
            description: "settle negative", text: "settle_ms = -1\n",
            code: .invalidValue, key: "settle_ms", line: 1, mentions: ["0 to 60000"]),
    ]

    @Test(arguments: cases)
    func badFileIsReported(_ testCase: Case) throws {
        var world = World()
        world.config(testCase.text)
        let error = try #require(world.error())
        #expect(error.code == testCase.code)
        #expect(error.file == World.defaultConfig)
        #expect(error.description.hasPrefix(World.defaultConfig + ":"))
        if let key = testCase.key { #expect(error.key == key) }
        if let line = testCase.line { #expect(error.line == line) }
        for fragment in testCase.mentions {
            #expect(error.message.contains(fragment), "\(error.message)")
        }
    }

    @Test func syntaxErrorNamesLineAndColumn() throws {
        var world = World()
        world.config("root = \"/a\"\nmirror = = \"/b\"\n")
        let error = try #require(world.error())
        #expect(error.line == 2)
        #expect(error.column == 10)
        #expect(error.description.hasPrefix(World.defaultConfig + ":2:10: syntax error"))
    }

    enum Naming: CaseIterable, Sendable { case flag, environment }

    @Test(arguments: Naming.allCases)
    func missingExplicitFileIsAnError(naming: Naming) throws {
        var world = World()
        switch naming {
        case .flag: world.overrides.configFile = "/etc/nope.toml"
        case .environment: world.environment["UBQ_CONFIG"] = "/etc/nope.toml"
        }
        let error = try #require(world.error())
        #expect(error.code == .missingConfigFile)
        #expect(error.file == "/etc/nope.toml")
        #expect(error.key == (naming == .flag ? "--config" : "UBQ_CONFIG"))
    }

    struct Unreadable: Error, CustomStringConvertible {
        var description: String { "Permission denied" }
    }

    @Test func unreadableFileIsAnErrorWithTheCause() throws {
        let error = try #require(throws: SettingsError.self) {
            try Settings.resolve(
                overrides: SettingsOverrides(), environment: ["HOME": "/home/ann"],
                currentDirectory: "/", userID: 1, readFile: { _ in throw Unreadable() })
        }
        #expect(error.code == .unreadableConfigFile)
        #expect(error.file == World.defaultConfig)
        #expect(error.message.contains("Permission denied"))
    }

    @Test(arguments: ["--log-level", "UBQ_LOG_LEVEL"])
    func badLogLevelOutsideTheFileNamesItsSource(source: String) throws {
        var world = World()
        if source == "--log-level" {
            world.overrides.logLevel = "loud"
        } else {
            world.environment[source] = "loud"
        }
        let error = try #require(world.error())
        #expect(error.code == .invalidValue)
        #expect(error.key == source)
        #expect(error.file == nil)
    }

    @Test func logLevelIsCaseInsensitive() throws {
        var world = World()
        world.environment["UBQ_LOG_LEVEL"] = "DEBUG"
        #expect(try world.resolve().logLevel == "debug")
    }

    @Test func aFullFileIsRead() throws {
        var world = World()
        world.config(
            """
            root = "~/Cloud"
            mirror = "/mnt/nas/ubiquity"
            state_dir = "/var/lib/u"
            runtime_dir = "/run/u"
            log_level = "notice"
            settle_ms = 120
            ignore = ["*.bak"]

            [[container]]
            id = "iCloud.com.example.Diary"
            """)
        let settings = try world.resolve()
        let expected = Settings(
            root: "/home/ann/Cloud", mirror: "/mnt/nas/ubiquity", stateDirectory: "/var/lib/u",
            runtimeDirectory: "/run/u", configFile: World.defaultConfig,
            containerIDs: [try ContainerID("iCloud.com.example.Diary")], logLevel: "notice",
            settleMilliseconds: 120, ignorePatterns: ["*.bak"])
        #expect(settings == expected)
    }
}
