import APIModel
import Foundation
import Glibc
import Testing
import TestSupport

/// The index's disk fills up (its state folder here is a small tmpfs, filled to the last
/// block): changes made meanwhile cannot be written. The daemon must keep running, say so
/// in its status, and bring the index up to date once there is space again, without a
/// restart and without any further change on disk to prompt it.
@Suite(.serialized, .enabled(if: SmallDisk.canMount, "needs root to mount a small tmpfs"))
struct FullIndexDiskTests {
    @Test func theIndexCatchesUpOnceTheDiskHasSpaceAgain() throws {
        let daemon = try DaemonHarness()
        let state = daemon.base + "/state"
        try SmallDisk.mount(at: state, size: "8m")
        defer {
            daemon.stop()
            SmallDisk.unmount(state)
        }
        try daemon.start()
        try daemon.shell("echo before > before.txt")
        try daemon.expectIndexMatchesDisk()
        SmallDisk.fill(state)
        // More than the write-ahead log's free pages can hold: text content is indexed too.
        try daemon.shell("mkdir meanwhile && for i in $(seq 3000); do printf 'file %s %0400d\\n' $i 0 > meanwhile/f$i.txt; done")
        let failing = try waitForStatus(daemon) { $0.indexError != nil }
        #expect(failing.summary.contains("index behind the disk"), "\(failing.summary)")
        #expect(daemon.process?.isRunning == true)

        SmallDisk.empty(state)
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
        try FileManager.default.createDirectory(atPath: daemon.documents, withIntermediateDirectories: true)
        // 200 items fit in 4 MB; their words (200 texts of 90 KB) do not.
        try daemon.shell("seq -f 'word%g' 1 10000 > \(daemon.base)/words && for i in $(seq 200); do cp \(daemon.base)/words text$i.txt; done")
        try SmallDisk.mount(at: state, size: "4m")
        defer {
            daemon.stop()
            SmallDisk.unmount(state)
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
