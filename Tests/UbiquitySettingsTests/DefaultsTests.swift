import Testing
import UbiquitySettings

@Suite("Defaults follow the XDG base-directory variables, else HOME")
struct DefaultsTests {
    struct Case: Sendable, CustomStringConvertible {
        var description: String
        var environment: [String: String]
        var root: String
        var state: String
        var runtime: String
    }

    static let cases: [Case] = [
        Case(
            description: "HOME only", environment: ["HOME": "/home/ann"],
            root: "/home/ann/Ubiquity", state: "/home/ann/.local/state/ubiquity", runtime: "/tmp/ubiquity-1000"),
        Case(
            description: "XDG variables set",
            environment: ["HOME": "/home/ann", "XDG_STATE_HOME": "/xdg/state", "XDG_RUNTIME_DIR": "/run/user/1000"],
            root: "/home/ann/Ubiquity", state: "/xdg/state/ubiquity", runtime: "/run/user/1000/ubiquity"),
        Case(
            description: "XDG variables empty count as unset",
            environment: ["HOME": "/home/ann", "XDG_STATE_HOME": "", "XDG_RUNTIME_DIR": ""],
            root: "/home/ann/Ubiquity", state: "/home/ann/.local/state/ubiquity", runtime: "/tmp/ubiquity-1000"),
        Case(
            description: "relative XDG variables are ignored",
            environment: ["HOME": "/home/ann", "XDG_STATE_HOME": "state", "XDG_RUNTIME_DIR": "run"],
            root: "/home/ann/Ubiquity", state: "/home/ann/.local/state/ubiquity", runtime: "/tmp/ubiquity-1000"),
        Case(
            description: "trailing slashes are dropped",
            environment: ["HOME": "/home/ann/", "XDG_STATE_HOME": "/xdg/state/", "XDG_RUNTIME_DIR": "/run/user/1000//"],
            root: "/home/ann/Ubiquity", state: "/xdg/state/ubiquity", runtime: "/run/user/1000/ubiquity"),
    ]

    @Test(arguments: cases)
    func defaultsFromTheEnvironment(_ testCase: Case) throws {
        var world = World()
        world.environment = testCase.environment
        let settings = try world.resolve()
        #expect(settings.root == testCase.root)
        #expect(settings.stateDirectory == testCase.state)
        #expect(settings.runtimeDirectory == testCase.runtime)
        #expect(settings.mirror == nil)
        #expect(settings.logLevel == "info")
        #expect(settings.settleMilliseconds == 50)
    }

    @Test func runtimeFolderOutsideXDGIsNamedByTheUserID() throws {
        var world = World()
        world.userID = 4242
        #expect(try world.resolve().runtimeDirectory == "/tmp/ubiquity-4242")
    }

    @Test func socketAndIndexLiveInTheRuntimeAndStateFolders() throws {
        var world = World()
        world.environment["XDG_RUNTIME_DIR"] = "/run/user/1000"
        let settings = try world.resolve()
        #expect(settings.socketPath == "/run/user/1000/ubiquity/ubqd.sock")
        #expect(settings.indexPath == "/home/ann/.local/state/ubiquity/index.sqlite")
    }

    @Test func xdgConfigHomeNamesTheDefaultConfigFile() throws {
        var world = World()
        world.environment["XDG_CONFIG_HOME"] = "/xdg/config"
        world.files["/xdg/config/ubiquity/config.toml"] = "log_level = \"debug\"\n"
        world.config("log_level = \"error\"\n")  // ~/.config is not read when XDG_CONFIG_HOME is set
        let settings = try world.resolve()
        #expect(settings.configFile == "/xdg/config/ubiquity/config.toml")
        #expect(settings.logLevel == "debug")
    }

    @Test func withoutHomeTheRootHasNoDefault() {
        var world = World()
        world.environment = [:]
        let error = world.error()
        #expect(error?.code == .missingEnvironment)
        #expect(error?.key == "HOME")
        #expect(error?.message.contains("UBQ_ROOT") == true)
    }

    @Test func withoutHomeEverythingGivenExplicitlyStillResolves() throws {
        var world = World()
        world.environment = ["UBQ_ROOT": "/data/u", "XDG_STATE_HOME": "/state"]
        let settings = try world.resolve()
        #expect(settings.root == "/data/u")
        #expect(settings.stateDirectory == "/state/ubiquity")
        #expect(settings.configFile == nil)
    }

    @Test func emptyUbiquityVariablesCountAsUnset() throws {
        var world = World()
        world.environment["UBQ_ROOT"] = ""
        world.environment["UBQ_MIRROR"] = ""
        let settings = try world.resolve()
        #expect(settings.root == "/home/ann/Ubiquity")
        #expect(settings.mirror == nil)
    }

    @Test func settingsGivenInFullAlwaysHoldTheDefaultContainer() {
        let settings = Settings(root: "/r", stateDirectory: "/s", runtimeDirectory: "/t")
        #expect(settings.containerIDs == [.defaultContainer])
        #expect(settings.logLevel == Settings.defaultLogLevel)
    }
}
