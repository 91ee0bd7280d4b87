import Foundation
import Glibc
import Testing

/// SIGHUP (`systemctl --user reload ubqd`) re-reads config.toml: the log level, the ignore
/// patterns and the [sync] table change at once, other changes are logged as waiting for a restart, and a
/// malformed file changes nothing and stops nothing.
@Suite(.serialized) struct ConfigReloadTests {
    /// The log level must come from the file, so the harness's UBQ_LOG_LEVEL is unset
    /// (an empty variable counts as unset).
    static let fileDecidesTheLevel = ["UBQ_LOG_LEVEL": ""]

    /// Sends SIGHUP and waits for the reload's `READY=1` and for `line` in the log.
    func reload(_ daemon: DaemonHarness, expecting line: String) throws {
        let process = try #require(daemon.process)
        #expect(kill(process.processIdentifier, SIGHUP) == 0)
        _ = try #require(daemon.notify).waitForNew("RELOADING=1", timeout: .seconds(30))
        try daemon.waitForLog(line)
    }

    /// `ubq` with an empty config folder: it reads config.toml as ubqd does, and some tests
    /// leave a broken one there on purpose.
    func ubqIgnoringTheConfig(_ daemon: DaemonHarness, _ arguments: [String]) throws -> CommandResult {
        let empty = daemon.base + "/empty-config"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        return try CommandResult.run(
            DaemonHarness.binaries + "/ubq", arguments, environment: daemon.environment.merging(["XDG_CONFIG_HOME": empty]) { $1 })
    }

    @Test func theLogLevelAndIgnorePatternsChangeLive() throws {
        let daemon = try DaemonHarness()
        try daemon.writeConfig("log_level = \"info\"\n")
        try daemon.start(extraEnvironment: Self.fileDecidesTheLevel)
        try daemon.shell("echo notes > notes.txt && echo old > draft.bak")
        #expect(Set(try daemon.indexedItems().keys) == [daemon.documents + "/notes.txt", daemon.documents + "/draft.bak"])

        try daemon.writeConfig("log_level = \"debug\"\nignore = [\"*.bak\"]\n")
        try reload(daemon, expecting: "configuration reloaded from \(daemon.base)/config/ubiquity/config.toml")
        #expect(daemon.log().contains("applied log_level (info → debug), ignore (none → \"*.bak\")"))
        #expect(Set(try daemon.indexedItems().keys) == [daemon.documents + "/notes.txt"])
        try daemon.shell("echo new > later.bak && echo more > more.txt")
        #expect(Set(try daemon.indexedItems().keys) == [daemon.documents + "/notes.txt", daemon.documents + "/more.txt"])

        // Debug lines appear only now: the service group's, as ubqd stops.
        #expect(!daemon.log().contains("Triggering graceful shutdown"))
        daemon.stop()
        #expect(daemon.log().contains("Triggering graceful shutdown"))
    }

    @Test func reloadedIgnorePatternsAlsoKeepFilesOutOfSync() throws {
        let mirror = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-mirror-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: mirror) }
        let (sender, receiver) = (try DaemonHarness(), try DaemonHarness())
        for device in [sender, receiver] { try device.start(extraEnvironment: ["UBQ_MIRROR": mirror]) }
        try sender.writeConfig("ignore = [\"*.bak\"]\n")
        try reload(sender, expecting: "configuration reloaded")
        try sender.shell("echo keep > kept.txt && echo skip > skipped.bak")
        for device in [sender, receiver] { #expect(try device.ubq(["sync"]).status == 0) }
        let received = try FileManager.default.contentsOfDirectory(atPath: receiver.documents)
        #expect(received == ["kept.txt"])
    }

    @Test func theSyncTableChangesLiveAndTheNewDeletionGuardHolds() throws {
        let mirror = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-mirror-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: mirror) }
        let daemon = try DaemonHarness()
        try daemon.start(extraEnvironment: ["UBQ_MIRROR": mirror])
        try daemon.shell("for n in $(seq 1 10); do echo $n > file-$n.txt; done")
        #expect(try daemon.ubq(["sync"]).status == 0)

        // A guard that holds even one deletion of ten: however the three below reach the
        // passes (together, or one first), none goes through.
        try daemon.writeConfig("[sync]\npoll_interval_ms = 50\ndeletion_guard_percent = 5\ndeletion_guard_minimum = 1\n")
        try reload(daemon, expecting: "configuration reloaded")
        #expect(daemon.log().contains(
            "applied sync.poll_interval_ms (100 ms → 50 ms), sync.deletion_guard_percent (50 % → 5 %), sync.deletion_guard_minimum (20 → 1)"),
            "\(daemon.log())")
        try daemon.shell("rm file-1.txt file-2.txt file-3.txt")
        // Full: a pass reports the deletions it held, and one started on its own may have
        // taken them first. Held, they leave the pass undone: exit status 75.
        #expect(try daemon.ubq(["sync", "--full"]).status == 75)
        let status = try JSONSerialization.jsonObject(with: try daemon.ubq(["status", "--json"]).output) as? [String: Any]
        let containers = (status?["sync"] as? [String: Any])?["containers"] as? [[String: Any]]
        #expect(containers?.first?["heldDeletions"] as? Int == 3, "\(containers ?? [])")
    }

    @Test func changesThatNeedARestartAreNamedAndLeftAlone() throws {
        let daemon = try DaemonHarness()
        try daemon.start(extraEnvironment: Self.fileDecidesTheLevel)
        try daemon.writeConfig("settle_ms = 500\n[[container]]\nid = \"iCloud.com.example.Later\"\n")
        try reload(daemon, expecting: "need a restart")
        #expect(daemon.log().contains(
            "were not applied: container (iCloud.org.ubiquity.Default → iCloud.com.example.Later, iCloud.org.ubiquity.Default), settle_ms (50 ms → 500 ms)"))
        #expect(daemon.log().contains("nothing to change"))
        let containers = try daemon.ubq(["containers"])
        #expect(containers.status == 0 && !containers.text.contains("Later"))
    }

    @Test func aMalformedConfigurationKeepsEverySettingAndTheDaemonRunning() throws {
        let daemon = try DaemonHarness()
        try daemon.writeConfig("ignore = [\"*.bak\"]\n")
        try daemon.start(extraEnvironment: Self.fileDecidesTheLevel)
        let notify = try #require(daemon.notify)

        try daemon.writeConfig("ignore = [\"*.bak\"]\nlog_level = \"debug\n")
        try reload(daemon, expecting: "configuration not reloaded")
        #expect(daemon.log().contains("\(daemon.base)/config/ubiquity/config.toml:2:"), "the error names the file and line")
        _ = try notify.waitForNew("READY=1", timeout: .seconds(10))

        try daemon.writeConfig("ignore = [\"[abc\"]\n")
        try reload(daemon, expecting: "key 'ignore', pattern 1")

        #expect(try #require(daemon.process).isRunning)
        try daemon.shell("echo x > kept.txt && echo y > still-ignored.bak")
        let listed = try ubqIgnoringTheConfig(daemon, ["ls", "-0"])
        #expect(listed.status == 0, "\(listed.errorText)")
        #expect(listed.output.split(separator: 0).map { String(decoding: $0, as: UTF8.self) } == [daemon.documents + "/kept.txt"])
        #expect(!daemon.log().contains(" debug "), "the level stayed info")
    }
}
