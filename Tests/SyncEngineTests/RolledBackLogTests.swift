import Foundation
import Glibc
@testable import SyncEngine
import Testing

/// A device's log cut back to an older state (by hand, or a mirror restored from a backup):
/// the versions it lost were on every device. Nobody goes back to the older content, and
/// the device numbers its next versions after the lost ones, never reusing their ids.
@Suite struct RolledBackLogTests {
    static let container = TestDevice.containerID.identifier

    /// After restarts, every device reads only the older lines: the file stays as the
    /// devices had it, and is recorded again.
    @Test func devicesKeepTheContentTheLogLost() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        let (log, cut) = try rollBack(a, b, writing: ["v1", "v2"], keeping: 1)
        try a.restart()
        try b.restart()
        let reportA = a.sync()
        let reportB = b.sync()
        a.sync()

        #expect(a.read("note.txt") == "v2" && b.read("note.txt") == "v2", "a: \(reportA.problems) b: \(reportB.problems)")
        let sequences = try ownSequences(in: log, of: a)
        #expect(sequences.count == Set(sequences).count, "\(sequences)")
        #expect(sequences.count == cut.kept + 1 && sequences.last! > cut.lost, "recorded again, after the lost numbers: \(sequences), \(cut)")
    }

    /// Every log deleted, folder and all (a person tidying the mirror): the next change is
    /// published at once, the log and its folder made anew, not refused by a writer that
    /// still had the old file in hand.
    @Test func aLogFolderDeletedIsMadeAgainByTheNextChange() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("doc.txt", "doc")
        a.sync()
        b.sync()
        try FileManager.default.removeItem(atPath: MirrorLayout(root: a.mirror).logFolder(container: Self.container))
        try a.write("more.txt", "more")
        let report = a.sync()
        #expect(report.published >= 1, "\(report.problems)")
        #expect(!report.problems.contains { $0.contains("No such file or directory") }, "\(report.problems)")
        b.sync()
        #expect(b.read("more.txt") == "more")
    }

    /// The mirror unmounted in the middle of a pass, its logs with it: the log folder is
    /// not made on the empty mount point (the disk below), and the change waits.
    @Test func aLogFolderIsNotMadeAgainWhereTheMirrorWent() throws {
        let scratch = Scratch()
        let (a, _) = try scratch.pair()
        try a.write("doc.txt", "doc")
        a.sync()
        let layout = MirrorLayout(root: a.mirror)
        let marker = try Data(contentsOf: URL(fileURLWithPath: layout.marker))
        try a.write("more.txt", "more")
        let faults = FaultInjection()
        faults.interleave(at: "between actions") {
            try? FileManager.default.removeItem(atPath: layout.root + "/containers")
            try? FileManager.default.removeItem(atPath: layout.marker)
        }
        a.engine.faults = faults
        let report = a.sync()
        #expect(report.published == 0 && !FileManager.default.fileExists(atPath: layout.logFolder(container: Self.container)), "\(report)")

        a.engine.faults = nil
        try marker.write(to: URL(fileURLWithPath: layout.marker))  // mounted again
        #expect(a.sync().published >= 1)
    }

    /// The other device runs on, holding the lost versions: the device whose log it is
    /// must not reuse their numbers, or its next change would be taken for one of them.
    @Test func aRunningDeviceGetsTheChangesMadeAfterTheCut() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        _ = try rollBack(a, b, writing: ["v1", "v2", "v3"], keeping: 1)
        try a.restart()
        a.sync()
        b.sync()
        try a.write("note.txt", "v4")
        a.sync(settled: true)
        let report = b.sync()

        #expect(b.read("note.txt") == "v4", "\(report.problems)")
        #expect(a.read("note.txt") == "v4")
    }

    /// The whole mirror restored from an older copy (a backup of the NAS): logs, store and
    /// views go back together. What the devices agreed on since is recorded again.
    @Test func aMirrorRestoredFromAnOlderCopyTakesNobodyBack() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("note.txt", "v1")
        a.sync(settled: true)
        b.sync()
        let backup = scratch.path + "/backup"
        try FileManager.default.copyItem(atPath: a.mirror, toPath: backup)
        try a.write("note.txt", "v2")
        a.sync(settled: true)
        try b.write("new.txt", "made on b")
        b.sync(settled: true)
        a.sync()
        try FileManager.default.removeItem(atPath: a.mirror)
        try FileManager.default.moveItem(atPath: backup, toPath: a.mirror)
        try a.restart()
        try b.restart()
        for device in [a, b, a, b] { device.sync() }

        let expected = ["note.txt": "v2", "new.txt": "made on b"]
        #expect(a.tree() == expected && b.tree() == expected, "a: \(a.tree()) b: \(b.tree())")
        try a.write("note.txt", "v3")
        a.sync(settled: true)
        b.sync()
        #expect(b.read("note.txt") == "v3", "and sync goes on")
    }

    /// Another device's log unreadable for one pass (a network mount's hiccup, a replicator
    /// replacing the file) is not a log cut back: the version it holds is newer, and must
    /// not lose to this device's older content published again. Found in review.
    @Test func aLogUnreadableForOnePassDoesNotUndoANewerEdit() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try b.write("f.txt", "v0")
        b.sync(settled: true)
        a.sync()
        try a.write("f.txt", "v1")
        a.sync(settled: true)
        b.sync()
        try a.write("f.txt", "v2")
        a.sync(settled: true)  // b has not seen v2 yet
        try b.restart()
        let log = MirrorLayout(root: a.mirror).log(container: Self.container, device: a.engine.device.id)
        #expect(rename(log, log + ".away") == 0)
        let hidden = b.sync()
        #expect(rename(log + ".away", log) == 0)
        for device in [b, a, b, a] { device.sync() }

        #expect(a.read("f.txt") == "v2" && b.read("f.txt") == "v2", "published while hidden: \(hidden.published)")
        #expect(a.engine.conflicts().isEmpty, "\(a.engine.conflicts())")
    }

    /// `texts` written to `note.txt` on a, each synced to b; then a's log cut back to what
    /// it held after the first `keeping` of them. Returns the log's path, how many lines
    /// it kept and the last number it lost.
    private func rollBack(
        _ a: TestDevice, _ b: TestDevice, writing texts: [String], keeping: Int
    ) throws -> (log: String, cut: (kept: Int, lost: UInt64)) {
        let log = MirrorLayout(root: a.mirror).log(container: Self.container, device: a.engine.device.id)
        var kept = Data()
        for (position, text) in texts.enumerated() {
            try a.write("note.txt", text)
            a.sync(settled: true)
            b.sync()
            if position == keeping - 1 { kept = try Data(contentsOf: URL(fileURLWithPath: log)) }
        }
        let lost = try ownSequences(in: log, of: a).last ?? 0
        try kept.write(to: URL(fileURLWithPath: log))
        return (log, (try ownSequences(in: log, of: a).count, lost))
    }

    private func ownSequences(in log: String, of device: TestDevice) throws -> [UInt64] {
        var reader = LogReader(path: log, device: device.engine.device.id)
        return try reader.readNew().records.map(\.id.sequence)
    }
}
