import Foundation
import Glibc
import Logging
@testable import SyncEngine
import Testing

/// A file deeper than Linux lets a path name (PATH_MAX, 4096 bytes, made with `openat`):
/// sync cannot carry it, says so and what to do, and carries what lies above it; the
/// failure, the same every pass, does not make the next pass look at everything again.
@Suite struct LongPathTests {
    @Test func aPathTooLongForLinuxIsReportedWithTheFix() throws {
        let scratch = Scratch()
        defer { removeDeepTree(scratch.path) }
        let (a, b) = try scratch.pair()
        let name = String(repeating: "d", count: 250)
        try makeDeepFile(in: a.documents, folders: 18, named: name)
        try a.write("shallow.txt", "shallow")
        let reportA = a.sync()
        let reportB = b.sync()

        let hint = "longer than Linux takes"
        #expect(reportA.problems.contains { $0.contains("deep.txt") && $0.contains(hint) }, "\(reportA.problems)")
        #expect(reportB.problems.contains { $0.contains(hint) }, "\(reportB.problems)")
        #expect(!reportB.incomplete, "the next pass need not look at everything")
        #expect(b.read("shallow.txt") == "shallow")
        #expect(Sys.lstat(b.documents + "/" + name) != nil, "the folders that fit arrive")
    }

    /// A failure that stands from pass to pass is logged once while it stands: ubqd polls
    /// a folder deeper than inotify reaches every 5 s, and logged it each time.
    @Test func aStandingFailureIsLoggedOnce() throws {
        let scratch = Scratch()
        defer { removeDeepTree(scratch.path) }
        let a = try scratch.devices("a")[0]
        try makeDeepFile(in: a.documents, folders: 18, named: String(repeating: "d", count: 250))
        for _ in 0..<3 { #expect(a.sync().problems.contains { $0.contains("deep.txt") }, "the status lists it each time") }
        #expect(a.log.texts(at: .warning).count { $0.contains("deep.txt") } == 1, "\(a.log.texts(at: .warning))")
    }

    /// A name over 255 bytes (90 CJK characters; a Mac takes them), from another device's
    /// log: the problem names the name, not the path. Found in review.
    @Test func aNameTooLongForLinuxIsCalledSo() throws {
        let scratch = Scratch()
        let b = try Self.receivingANameTooLong(scratch)
        let report = b.sync()

        #expect(report.problems.contains { $0.contains("is 270 bytes, longer than Linux takes (255)") }, "\(report.problems)")
        #expect(!report.incomplete)
        #expect(report.failed == 1 && b.engine.status().first?.notSynced == 1, "the download failed: `ubq sync` says so")
    }

    /// The failed download counts once, though the pass tried it in each round (a file
    /// published here makes a second round), and still counts after a pass over another
    /// change, which does not look at it: `ubq sync` must not exit 0 while it is missing.
    @Test func aDownloadThatCannotBeMadeCountsOnceAndUntilItIsFixed() throws {
        let scratch = Scratch()
        let b = try Self.receivingANameTooLong(scratch)
        try b.write("local.txt", "published in the same pass")
        let report = b.sync()

        #expect(report.published >= 1 && report.failed == 1, "\(report.problems)")
        #expect(report.problems.count { $0.contains("longer than Linux takes") } == 1, "\(report.problems)")
        try b.write("other.txt", "another change")
        b.sync(changed: ["Documents/other.txt"])
        let status = try #require(b.engine.status().first)
        #expect(status.notSynced == 1 && status.problems.count { $0.contains("longer than Linux takes") } == 1, "\(status)")
    }

    /// A pass over a change in a folder above the failed download looks at that folder's
    /// subtree, and answers for the failures kept there: it tries the download again rather
    /// than forget it. Found live: the folders b made on the way to a path too deep were
    /// reported by the watcher, and the pass over them dropped the five downloads that
    /// failed below them from the status, which said `idle` with nothing missing.
    @Test func aPassOverTheFolderAboveAFailedDownloadTriesItAgainAndStillCountsIt() throws {
        let scratch = Scratch()
        let b = try Self.receivingANameTooLong(scratch)
        #expect(b.sync().failed == 1)
        try b.write("other.txt", "a change beside it")
        let report = b.sync(changed: ["Documents"])

        #expect(report.failed == 1, "tried again: \(report.problems)")
        let status = try #require(b.engine.status().first)
        #expect(status.notSynced == 1 && status.problems.count { $0.contains("longer than Linux takes") } == 1, "\(status)")
    }

    /// Device b, synced, and a log line of another device in the mirror it has not read:
    /// a file named with 90 CJK characters (270 bytes; a Mac takes them).
    private static func receivingANameTooLong(_ scratch: Scratch) throws -> TestDevice {
        let (a, b) = try scratch.pair()
        try a.write("seed.txt", "seed")
        a.sync(settled: true)
        b.sync()
        let name = String(repeating: "日", count: 90)
        let stored = try ContentStore(layout: MirrorLayout(root: a.mirror), device: "0123456789abcdef").store(bytes: Array("hello".utf8))
        let line = #"{"seq":1,"time":1795340000000,"path":"Documents/"# + name
            + #"","parents":[],"op":"put","kind":"file","mode":420,"sha256":""# + stored.sha256 + #"","size":5}"# + "\n"
        let log = MirrorLayout(root: a.mirror).log(container: TestDevice.containerID.identifier, device: "0123456789abcdef")
        try FileManager.default.createDirectory(atPath: Sys.parent(of: log), withIntermediateDirectories: true)
        try Data(line.utf8).write(to: URL(fileURLWithPath: log))
        return b
    }

    private func makeDeepFile(in folder: String, folders: Int, named name: String) throws {
        var fd = open(folder, O_RDONLY | O_DIRECTORY)
        for _ in 0..<folders {
            #expect(mkdirat(fd, name, 0o755) == 0)
            let next = openat(fd, name, O_RDONLY | O_DIRECTORY)
            close(fd)
            fd = next
        }
        let file = openat(fd, "deep.txt", O_WRONLY | O_CREAT, 0o644)
        _ = "deep".withCString { write(file, $0, 4) }
        close(file)
        close(fd)
    }

    /// `rm -rf`, which walks a tree deeper than PATH_MAX (FileManager does not).
    private func removeDeepTree(_ path: String) {
        let rm = Process()
        rm.executableURL = URL(fileURLWithPath: "/bin/rm")
        rm.arguments = ["-rf", path]
        try? rm.run()
        rm.waitUntilExit()
    }
}
