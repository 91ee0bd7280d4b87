import Testing
import UbiquitySettings

@Suite("Paths expand ~ and $HOME and resolve relative to where they were written")
struct PathTests {
    enum Where: String, CaseIterable, Sendable { case flag, environment, file, explicitFile }

    struct Case: Sendable, CustomStringConvertible {
        var written: String
        var expected: String
        var description: String { "\(written) → \(expected)" }
    }

    /// The current directory is /work/dir; the explicit config file is /etc/ubq/config.toml and
    /// the default one lives in /home/ann/.config/ubiquity.
    static let cases: [(Where, Case)] = [
        (.flag, Case(written: "~/U", expected: "/home/ann/U")),
        (.flag, Case(written: "data/U", expected: "/work/dir/data/U")),
        (.flag, Case(written: "../U", expected: "/work/U")),
        (.flag, Case(written: "/a/./b//c/", expected: "/a/b/c")),
        (.environment, Case(written: "~", expected: "/home/ann")),
        (.environment, Case(written: "$HOME/U", expected: "/home/ann/U")),
        (.environment, Case(written: "${HOME}/U", expected: "/home/ann/U")),
        (.environment, Case(written: "U", expected: "/work/dir/U")),
        (.environment, Case(written: "$HOMEWORK/U", expected: "/work/dir/$HOMEWORK/U")),
        (.file, Case(written: "~/U", expected: "/home/ann/U")),
        (.file, Case(written: "U", expected: "/home/ann/.config/ubiquity/U")),
        (.file, Case(written: "../../U", expected: "/home/ann/U")),
        (.explicitFile, Case(written: "U", expected: "/etc/ubq/U")),
        (.explicitFile, Case(written: "$HOME/U", expected: "/home/ann/U")),
    ]

    static func world(writing path: String, in place: Where) -> World {
        var world = World()
        switch place {
        case .flag: world.overrides.root = path
        case .environment: world.environment["UBQ_ROOT"] = path
        case .file: world.config("root = '\(path)'\n")
        case .explicitFile:
            world.environment["UBQ_CONFIG"] = "/etc/ubq/config.toml"
            world.files["/etc/ubq/config.toml"] = "root = '\(path)'\n"
        }
        return world
    }

    @Test(arguments: cases)
    func rootIsExpandedAndResolved(place: Where, testCase: Case) throws {
        let settings = try Self.world(writing: testCase.written, in: place).resolve()
        #expect(settings.root == testCase.expected)
    }

    @Test(arguments: Where.allCases)
    func tildeUserIsRefused(place: Where) {
        let error = Self.world(writing: "~bob/U", in: place).error()
        #expect(error?.code == .invalidValue)
        #expect(error?.message.contains("~user") == true)
    }

    @Test(arguments: [Where.flag, .environment, .file])
    func tildeWithoutHomeIsAnError(place: Where) {
        var world = Self.world(writing: "~/U", in: place)
        world.environment["HOME"] = nil
        if place == .file {
            world.environment["XDG_CONFIG_HOME"] = "/home/ann/.config"
        }
        world.environment["XDG_STATE_HOME"] = "/state"
        #expect(world.error()?.code == .missingEnvironment)
    }

    @Test func relativeFlagsFallBackToPWD() throws {
        var world = World()
        world.currentDirectory = nil
        world.environment["PWD"] = "/from/pwd"
        world.overrides.stateDirectory = "state"
        #expect(try world.resolve().stateDirectory == "/from/pwd/state")
    }

    @Test func relativeFlagsWithoutAnyCurrentDirectoryAreAnError() {
        var world = World()
        world.currentDirectory = nil
        world.overrides.mirror = "mirror"
        let error = world.error()
        #expect(error?.code == .invalidValue)
        #expect(error?.key == "--mirror")
        #expect(error?.message.contains("absolute path") == true)
    }

    @Test func relativeConfigFlagIsTakenAgainstTheCurrentDirectory() throws {
        var world = World()
        world.overrides.configFile = "conf/u.toml"
        world.files["/work/dir/conf/u.toml"] = "mirror = \"../mirror\"\n"
        let settings = try world.resolve()
        #expect(settings.configFile == "/work/dir/conf/u.toml")
        #expect(settings.mirror == "/work/dir/mirror")
    }

    @Test(arguments: ["/home/ann/Ubiquity", "/home/ann/Ubiquity/m", "/home/ann", "/"])
    func aMirrorOverlappingTheRootIsRefused(mirror: String) {
        var world = World()
        world.overrides.mirror = mirror
        let error = world.error()
        #expect(error?.code == .invalidValue)
        #expect(error?.key == "mirror")
    }

    @Test func aMirrorBesideTheRootIsFine() throws {
        var world = World()
        world.overrides.mirror = "/home/ann/Ubiquity-mirror"
        #expect(try world.resolve().mirror == "/home/ann/Ubiquity-mirror")
    }

    @Test func emptyPathInTheFileIsAnError() {
        var world = World()
        world.config("state_dir = \"\"\n")
        let error = world.error()
        #expect(error?.code == .invalidValue)
        #expect(error?.file == World.defaultConfig)
        #expect(error?.key == "state_dir")
    }
}
