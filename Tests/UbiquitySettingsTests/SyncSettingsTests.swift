import Testing
import UbiquitySettings

/// The `[sync]` table: the mirror poll interval, the full-pass interval and the deletion
/// guard, each an integer in a range, defaults when absent.
@Suite("The [sync] table of config.toml")
struct SyncSettingsTests {
    static func resolve(_ config: String) throws -> Settings {
        var world = World()
        world.config(config)
        return try world.resolve()
    }

    @Test func withoutATableTheDefaultsHold() throws {
        let sync = try Self.resolve("log_level = \"info\"\n").sync
        #expect(sync == SyncSettings(pollMilliseconds: 100, fullPassSeconds: 600, deletionGuardPercent: 50, deletionGuardMinimum: 20))
    }

    @Test func everyKeyIsRead() throws {
        let sync = try Self.resolve(
            """
            settle_ms = 10

            [sync]
            poll_interval_ms = 250
            full_pass_interval_s = 3600
            deletion_guard_percent = 10
            deletion_guard_minimum = 2
            history_retention_days = 7
            """
        ).sync
        #expect(sync == SyncSettings(pollMilliseconds: 250, fullPassSeconds: 3600, deletionGuardPercent: 10, deletionGuardMinimum: 2, historyRetentionDays: 7))
    }

    @Test func keysLeftOutKeepTheirDefaults() throws {
        let sync = try Self.resolve("[sync]\ndeletion_guard_minimum = 5\n").sync
        #expect(sync == SyncSettings(deletionGuardMinimum: 5))
    }

    @Test func dottedKeysWorkToo() throws {
        #expect(try Self.resolve("sync.poll_interval_ms = 40\n").sync.pollMilliseconds == 40)
    }

    @Test(arguments: [
        ("poll_interval_ms", 9, "10 to 60000"), ("poll_interval_ms", 60_001, "10 to 60000"),
        ("full_pass_interval_s", 0, "10 to 86400"), ("full_pass_interval_s", 86_401, "10 to 86400"),
        ("deletion_guard_percent", 0, "1 to 100"), ("deletion_guard_percent", 101, "1 to 100"),
        ("deletion_guard_minimum", 0, "1 to 1000000"), ("deletion_guard_minimum", -3, "1 to 1000000"),
        ("history_retention_days", -1, "0 to 36500"), ("history_retention_days", 36_501, "0 to 36500"),
    ])
    func outOfRangeNamesTheKeyTheLineAndTheRange(key: String, value: Int, range: String) throws {
        var world = World()
        world.config("log_level = \"info\"\n\n[sync]\n\(key) = \(value)\n")
        let error = try #require(world.error())
        #expect(error.code == .invalidValue)
        #expect(error.key == "sync.\(key)")
        #expect(error.line == 4)
        #expect(error.description.hasPrefix(World.defaultConfig + ":4: key 'sync.\(key)' is \(value)"), "\(error)")
        #expect(error.message.contains(range), "\(error.message)")
    }

    @Test func aTypoInTheTableIsSuggestedAFix() throws {
        var world = World()
        world.config("[sync]\npoll-interval-ms = 50\n")
        let error = try #require(world.error())
        #expect(error.code == .unknownKey)
        #expect(error.line == 2)
        #expect(error.message.contains("'poll-interval-ms' in [sync] (did you mean 'poll_interval_ms'?)"), "\(error.message)")
        #expect(error.message.contains("known keys: deletion_guard_minimum, deletion_guard_percent"), "\(error.message)")
    }

    @Test func aSyncKeyAtTheTopLevelSaysWhereItBelongs() throws {
        var world = World()
        world.config("poll_interval_ms = 50\n")
        let error = try #require(world.error())
        #expect(error.code == .unknownKey)
        #expect(error.message.contains("belongs in the [sync] table"), "\(error.message)")
    }

    @Test func aValueOfTheWrongTypeIsNamed() throws {
        var world = World()
        world.config("[sync]\nfull_pass_interval_s = \"10m\"\n")
        let error = try #require(world.error())
        #expect(error.code == .wrongType)
        #expect(error.line == 2)
        #expect(error.message.contains("must be an integer, but it is a string"), "\(error.message)")
    }

    @Test func syncThatIsNotATableIsAnError() throws {
        var world = World()
        world.config("sync = 5\n")
        let error = try #require(world.error())
        #expect(error.code == .wrongType)
        #expect(error.line == 1)
        #expect(error.message.contains("[sync]"), "\(error.message)")
    }

    @Test(arguments: [
        ("poll_interval_ms = 50", SettingChange(key: .syncPoll, old: "100 ms", new: "50 ms")),
        ("full_pass_interval_s = 60", SettingChange(key: .syncFullPass, old: "600 s", new: "60 s")),
        ("deletion_guard_percent = 10", SettingChange(key: .deletionGuardPercent, old: "50 %", new: "10 %")),
        ("deletion_guard_minimum = 2", SettingChange(key: .deletionGuardMinimum, old: "20", new: "2")),
        ("history_retention_days = 0", SettingChange(key: .historyRetention, old: "30 days", new: "forever")),
    ])
    func eachChangeIsReportedByItsDottedKey(line: String, expected: SettingChange) throws {
        let before = try Self.resolve("")
        let after = try Self.resolve("[sync]\n\(line)\n")
        #expect(before.changes(to: after) == [expected])
        #expect(expected.description.hasPrefix("sync."))
    }
}
