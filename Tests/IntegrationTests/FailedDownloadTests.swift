import Foundation
import Glibc
import Testing
import TestSupport

/// A download that cannot be installed pauses (a full disk) or is reported (a wrong log
/// line) and tried again later: never in a loop of passes, each writing a staging file and
/// removing it, which the daemon's watcher took for a change to sync.
@Suite(.serialized) struct FailedDownloadTests {
    static let container = "iCloud.org.ubiquity.Default"

    /// The `sync.containers[0]` object of `ubq status --json`.
    static func containerStatus(_ device: DaemonHarness) throws -> [String: Any] {
        let reply = try JSONSerialization.jsonObject(with: try device.ubq(["status", "--json"]).output) as? [String: Any]
        let containers = (reply?["sync"] as? [String: Any])?["containers"] as? [[String: Any]]
        return try #require(containers?.first { $0["container"] as? String == Self.container })
    }

    /// A device started on `shared`, that made its files with `script` and synced them.
    static func device(on shared: SharedMirror, syncing script: String) throws -> DaemonHarness {
        let device = shared.add(try DaemonHarness())
        try device.start(extraEnvironment: ["UBQ_MIRROR": shared.path])
        try device.shell(script)
        try shared.sync(device)
        return device
    }

    static func count(_ text: String, in log: String) -> Int {
        log.components(separatedBy: "\n").count { $0.contains(text) }
    }

    /// A log line whose size is not its object's fails the fetch after its staging file is
    /// written, every pass: one pass per change or `ubq sync`, not one after another.
    @Test func aDownloadThatFailsIsNotTriedAgainAndAgain() throws {
        let shared = SharedMirror()
        let a = try Self.device(on: shared, syncing: "echo hello > hello.txt")
        let logs = shared.path + "/containers/\(Self.container)/log"
        let own = try #require(try FileManager.default.contentsOfDirectory(atPath: logs).first)
        let line = try #require(try String(contentsOfFile: logs + "/" + own, encoding: .utf8).split(separator: "\n").last { $0.contains("hello.txt") })
        let sha256 = try #require(line.firstMatch(of: /"sha256":"([0-9a-f]{64})"/)?.1)
        let wrong = #"{"seq":1,"time":1795340000000,"path":"Documents/wrong.txt","parents":[],"op":"put","kind":"file","mode":420,"sha256":"\#(sha256)","size":99}"#
        try Data((wrong + "\n").utf8).write(to: URL(fileURLWithPath: logs + "/feedface00000001.ndjson"))

        let b = shared.add(try DaemonHarness())
        try b.start(extraEnvironment: ["UBQ_MIRROR": shared.path])
        for _ in 0..<3 { _ = try b.ubq(["sync"]) }
        #expect(try String(contentsOfFile: b.documents + "/hello.txt", encoding: .utf8) == "hello\n")
        #expect(!FileManager.default.fileExists(atPath: b.documents + "/wrong.txt"))
        // The start-up pass, three of `ubq sync` and a poll's: 5 in each of three runs. The
        // loop ran a pass every 60-70 ms for as long as the daemon ran: a loop is something
        // that does not stop, so the test gives it 3 s to show (it made 7 or 8 passes by
        // the end of the syncs alone).
        let failures = { Self.count("the log line says 99 bytes", in: b.log()) }
        #expect(failures() >= 1)
        let looped = waitUntil(seconds: 3) { failures() > 10 }
        #expect(!looped, "\(failures()) passes failed the download:\n\(b.log())")
    }
}

/// The container's disk has no room for a download: sync pauses, says which file and
/// why, writes nothing, and installs it by itself once there is room.
@Suite(.serialized, .enabled(if: SmallDisk.canMount, "needs root to mount a small tmpfs"))
struct FullContainerDiskTests {
    @Test func aDownloadThatCannotFitPausesAndArrivesOnceThereIsRoom() throws {
        let shared = SharedMirror()
        let a = try FailedDownloadTests.device(on: shared, syncing: "head -c 2000000 /dev/urandom > big.bin")

        let b = try DaemonHarness()
        try SmallDisk.mount(at: b.root, size: "1m")
        defer {
            b.stop()
            SmallDisk.unmount(b.root)
        }
        // No full pass before the retry (`SyncService.spaceRetryInterval`, 30 s) is due.
        try b.writeConfig("[sync]\nfull_pass_interval_s = 600\n")
        try b.start(extraEnvironment: ["UBQ_MIRROR": shared.path])
        let paused = try b.ubq(["sync"])
        #expect(paused.status == 75, "\(paused.text)")
        let status = try FailedDownloadTests.containerStatus(b)
        #expect(status["phase"] as? String == "paused", "\(status)")
        let problems = status["problems"] as? [String] ?? []
        #expect(problems.contains { $0.hasPrefix("Documents/big.bin: no room for 2000000 bytes") }, "\(problems)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: b.documents).isEmpty, "nothing was written")

        guard mount("tmpfs", b.root, "tmpfs", UInt(MS_REMOUNT), "size=8m") == 0 else { throw HarnessError("remount \(b.root): errno \(errno)") }
        let arrived = waitUntil(seconds: 60) { FileManager.default.contentsEqual(atPath: a.documents + "/big.bin", andPath: b.documents + "/big.bin") }
        #expect(arrived, "no retry once there was room:\n\(b.log())")
        // The file is in place before the pass that put it there ends and says so.
        let idle = waitUntil(seconds: 30) { (try? FailedDownloadTests.containerStatus(b)["phase"] as? String) == "idle" }
        #expect(idle, "\(String(describing: try? FailedDownloadTests.containerStatus(b)))")
    }
}
