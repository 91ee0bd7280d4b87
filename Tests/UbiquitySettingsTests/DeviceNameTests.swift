import Testing
import UbiquitySettings

/// `device_name` (and `UBQ_DEVICE_NAME`): the name other devices show this one by.
@Suite("The device's name")
struct DeviceNameTests {
    @Test func unsetItIsLeftToTheSyncState() throws {
        #expect(try World().resolve().deviceName == nil)
    }

    @Test func theFileNamesTheDeviceAndTheEnvironmentWins() throws {
        var world = World()
        world.config("device_name = \"Ann's laptop\"\n")
        #expect(try world.resolve().deviceName == "Ann's laptop")
        world.environment["UBQ_DEVICE_NAME"] = "büro"
        #expect(try world.resolve().deviceName == "büro")
    }

    @Test func surroundingWhiteSpaceIsDropped() throws {
        var world = World()
        world.environment["UBQ_DEVICE_NAME"] = "  desk pc\n"
        #expect(try world.resolve().deviceName == "desk pc")
    }

    @Test(arguments: [
        ("\"   \"", "is empty"),
        ("\"desk\\npc\"", "control character (U+000A) at character 5"),
        ("\"\\u001b[31mred\"", "control character (U+001B) at character 1"),
        ("\"\(String(repeating: "é", count: 33))\"", "is 66 bytes long; use at most 64"),
    ])
    func aNameThatCannotBeShownNamesTheFileLineAndFix(value: String, problem: String) throws {
        var world = World()
        world.config("log_level = \"info\"\ndevice_name = \(value)\n")
        let error = try #require(world.error())
        #expect(error.code == .invalidValue)
        #expect(error.description.hasPrefix(World.defaultConfig + ":2: key 'device_name'"), "\(error)")
        #expect(error.message.contains(problem), "\(error.message)")
    }

    @Test func aBadNameInTheEnvironmentNamesTheVariable() throws {
        var world = World()
        world.environment["UBQ_DEVICE_NAME"] = "a\u{7f}b"
        let error = try #require(world.error())
        #expect(error.message.hasPrefix("environment variable UBQ_DEVICE_NAME holds a control character (U+007F)"), "\(error.message)")
    }

    @Test func aNameAnotherDeviceWroteIsMadeSafeToShow() {
        #expect(DeviceName.displayable("laptop") == "laptop")
        #expect(DeviceName.displayable("evil\u{1b}]0;pwned\u{7}\nname") == "evil?]0;pwned??name")
        #expect(DeviceName.displayable("home/office") == "home-office")
        #expect(DeviceName.displayable(" \u{2028} ") == "?")
        #expect(DeviceName.displayable("x\u{202E}txt.exe") == "x?txt.exe", "a right-to-left override")
        #expect(DeviceName.displayable("👩‍💻 desk") == "👩‍💻 desk", "a joiner in an emoji is no control")
        #expect(DeviceName.displayable("  ") == nil)
    }

    @Test func aChangeOfNameIsListedAsOne() throws {
        var world = World()
        let before = try world.resolve()
        world.config("device_name = \"desk\"\n")
        #expect(before.changes(to: try world.resolve()).map(\.description) == ["device_name (none → \"desk\")"])
    }
}
