import APIModel
import Foundation
import Glibc
import Testing

/// The index's disk fills up (its state folder here is a small tmpfs, filled to the last
/// block): changes made meanwhile cannot be written. The daemon must keep running, say so
/// in its status, and bring the index up to date once there is space again, without a
/// restart and without any further change on disk to prompt it.
@Suite(.serialized, .enabled(if: SmallDisk.canMount, "needs root to mount a small tmpfs"))
struct FullIndexDiskTests {
    @Test func theIndexCatchesUpOnceTheDiskHasSpaceAgain() throws {
        let daemon = try DaemonHarness()
        let state = daemon.base + "/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        guard mount("tmpfs", state, "tmpfs", 0, "size=8m") == 0 else { throw HarnessError("mount tmpfs on \(state): errno \(errno)") }
        defer {
            daemon.stop()
            umount2(state, Int32(MNT_DETACH))
        }
        try daemon.start()
        try daemon.shell("echo before > before.txt")
        try daemon.expectIndexMatchesDisk()
        // Every block of the state folder taken: large pieces first, then the rest.
        try daemon.shell("dd if=/dev/zero of=\(state)/filler bs=64k 2>/dev/null; dd if=/dev/zero of=\(state)/filler2 bs=4k 2>/dev/null; true")
        // More than the write-ahead log's free pages can hold: text content is indexed too.
        try daemon.shell("mkdir meanwhile && for i in $(seq 3000); do printf 'file %s %0400d\\n' $i 0 > meanwhile/f$i.txt; done")
        let failing = try waitForStatus(daemon) { $0.indexError != nil }
        #expect(failing.summary.contains("index behind the disk"), "\(failing.summary)")
        #expect(daemon.process?.isRunning == true)

        try FileManager.default.removeItem(atPath: state + "/filler")
        try FileManager.default.removeItem(atPath: state + "/filler2")
        _ = try waitForStatus(daemon) { $0.indexError == nil && $0.pending == 0 }
        try daemon.expectIndexMatchesDisk()
        try daemon.shell("echo after > after.txt")
        try daemon.expectIndexMatchesDisk()
    }

    /// The start-up scan records names and status first and reads content after READY.
    /// Content the full disk cannot take stays pending, and must be read again once there is
    /// room, without a restart: nothing on disk changes to prompt it.
    @Test func theContentPassCatchesUpOnceTheDiskHasSpaceAgain() throws {
        let daemon = try DaemonHarness()
        let state = daemon.base + "/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: daemon.documents, withIntermediateDirectories: true)
        // 200 items fit in 4 MB; their words (200 texts of 90 KB) do not.
        try daemon.shell("seq -f 'word%g' 1 10000 > \(daemon.base)/words && for i in $(seq 200); do cp \(daemon.base)/words text$i.txt; done")
        guard mount("tmpfs", state, "tmpfs", 0, "size=4m") == 0 else { throw HarnessError("mount tmpfs on \(state): errno \(errno)") }
        defer {
            daemon.stop()
            umount2(state, Int32(MNT_DETACH))
        }
        try daemon.start()
        let failing = try waitForStatus(daemon) { $0.indexError != nil }
        #expect(failing.contentPending > 0, "\(failing)")
        #expect(daemon.process?.isRunning == true)
        // Meanwhile a query on text answers (without all of it) rather than wait for room.
        try daemon.shell("timeout 60 \(DaemonHarness.binaries)/ubq ls \"kMDItemTextContent CONTAINS 'word1'\" > /dev/null")

        guard mount("tmpfs", state, "tmpfs", UInt(MS_REMOUNT), "size=64m") == 0 else { throw HarnessError("remount \(state): errno \(errno)") }
        _ = try waitForStatus(daemon) { $0.indexError == nil && $0.contentPending == 0 }
        let found = try daemon.ubq(["ls", "--json", "kMDItemTextContent CONTAINS 'word9999'"])
        let items = try JSONSerialization.jsonObject(with: found.output) as? [Any]
        #expect(items?.count == 200, "\(found.errorText)")
    }

    /// Polls `ubq status --json` until `condition` holds (a minute at most).
    private func waitForStatus(_ daemon: DaemonHarness, _ condition: (DaemonStatus) -> Bool) throws -> DaemonStatus {
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            let output = try daemon.ubq(["status", "--json"])
            let status = try JSONDecoder().decode(DaemonStatus.self, from: output.output)
            if condition(status) { return status }
            guard ContinuousClock.now < deadline else { throw HarnessError("status never came: \(status)\nlog:\n\(daemon.log())") }
            usleep(100_000)
        }
    }
}

/// Whether this process may mount a tmpfs (root, as in CI): the test's small disk.
enum SmallDisk {
    static let canMount: Bool = {
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-mount-probe-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)
        defer { rmdir(probe) }
        guard mount("tmpfs", probe, "tmpfs", 0, "size=64k") == 0 else { return false }
        umount(probe)
        return true
    }()
}
