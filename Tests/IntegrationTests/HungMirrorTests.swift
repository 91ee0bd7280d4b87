import Foundation
import Glibc
import TestSupport
import Testing

/// A mirror whose server stops answering (an NFS or sshfs share, a hung disk) blocks every
/// call made to it, and the daemon's sync thread with it. `ubq versions`, `restore` and the
/// like, and `ubq sync`, queue behind that call: they hung, with nothing said, for as long as it lasted.
/// Here the mirror is a real FUSE mount (exfat-fuse) whose program is stopped with SIGSTOP:
/// calls to it wait, as on a share whose server went away.
@Suite(.serialized, .enabled(if: ExFatDisk.canMount, "needs root, /dev/fuse, a loop device and exfat-fuse"))
final class HungMirrorTests {
    @Test func requestsToAMirrorThatDoesNotAnswerFailSayingSoAndAreNotCarriedOutLater() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-hung-\(UUID().uuidString.prefix(8))").path
        let disk = try ExFatDisk(at: scratch + "/disk")
        defer {
            disk.unmount()
            DaemonHarness.remove(scratch)
        }
        let a = try DaemonHarness()
        defer { a.stop() }  // before the unmount, which waits for the daemon to leave the mount
        try a.start(extraEnvironment: ["UBQ_MIRROR": disk.mountPoint + "/mirror"])
        let doc = a.documents + "/doc.txt"
        try a.shell("echo first > doc.txt")
        #expect(try a.ubq(["sync"]).status == 0)
        try a.shell("echo second > doc.txt")
        #expect(try a.ubq(["sync"]).status == 0)
        let versions = try a.ubq(["versions", "--json", doc])
        let listed = try JSONSerialization.jsonObject(with: versions.output) as? [[String: Any]]
        let first = try #require(listed?.last?["id"] as? String, "the oldest version: \(versions.text) \(versions.errorText)")

        #expect(disk.pauseProgram(), "found the FUSE program")
        defer { disk.resumeProgram() }  // runs before the daemon stops and the disk goes
        // The daemon's poll (every 100 ms) is the first call to wait; the status says so after 5 s.
        try a.waitUntil("the status saying the mirror does not answer") { try Self.mirrorUnansweredSeconds(a) != nil }

        let restore = try Self.ubq(a, ["restore", doc, "--version", first])
        #expect(restore.status == 75, "try again later: \(restore.errorText)")
        #expect(restore.errorText.contains("has not answered for"), "\(restore.errorText)")
        #expect(restore.errorText.contains("nothing was done"), "\(restore.errorText)")
        // `ubq sync` in a script: its pass waits behind the daemon's own poll, also dropped.
        let sync = try Self.ubq(a, ["sync"])
        #expect(sync.status == 75 && sync.errorText.contains("has not answered for"), "\(sync.status): \(sync.errorText)")
        let listing = try Self.ubq(a, ["versions", doc])
        #expect(listing.status == 75 && listing.errorText.contains("has not answered for"), "\(listing.status): \(listing.errorText)")

        disk.resumeProgram()
        try a.waitUntil("the mirror answering again") { try Self.mirrorUnansweredSeconds(a) == nil }
        #expect(try a.ubq(["sync"]).status == 0)
        #expect(try String(contentsOfFile: doc, encoding: .utf8) == "second\n", "the restore given up on never ran")
        #expect(try a.ubq(["versions", doc]).status == 0)
    }

    /// `ubq` run on `device` that is stopped after 30 s (exit 124): a request that waits for
    /// the mirror fails the test instead of hanging it.
    private static func ubq(_ device: DaemonHarness, _ arguments: [String]) throws -> CommandResult {
        try CommandResult.run("/usr/bin/timeout", ["30", DaemonHarness.binaries + "/ubq"] + arguments, environment: device.environment)
    }

    /// `mirrorUnansweredSeconds` of the container's `ubq status --json`, if it says so.
    private static func mirrorUnansweredSeconds(_ device: DaemonHarness) throws -> Int? {
        let reply = try JSONSerialization.jsonObject(with: try device.ubq(["status", "--json"]).output) as? [String: Any]
        let containers = (reply?["sync"] as? [String: Any])?["containers"] as? [[String: Any]]
        return containers?.compactMap { $0["mirrorUnansweredSeconds"] as? Int }.max()
    }
}
