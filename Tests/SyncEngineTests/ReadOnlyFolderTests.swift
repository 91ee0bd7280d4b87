import Diary
import Foundation
import Glibc
import KeyedArchive
@testable import SyncEngine
import SyncPlanning
import Testing

/// Folders made read-only (chmod 555): their mode travels, and a daemon that is not root
/// must still put files in them, change and remove those files, and remove the folders.
/// Root's permission checks always pass, so these run only as another user: `make test`
/// runs them as `nobody` when it runs as root (scripts/test.sh).
@Suite("Read-only folders (not as root)", .enabled(if: getuid() != 0, "root writes in read-only folders anyway"))
struct ReadOnlyFolderTests {
    @Test func aReadOnlyFolderArrivesWithItsFiles() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("archive/deep/one.txt", "one")
        try a.write("archive/two.txt", "two")
        chmod(a.documents + "/archive/deep", 0o555)
        chmod(a.documents + "/archive", 0o555)
        defer { makeWritable(a, b) }
        let reportA = a.sync()
        let reportB = b.sync()

        #expect(reportA.problems.isEmpty && reportB.problems.isEmpty, "a: \(reportA.problems) b: \(reportB.problems)")
        #expect(b.read("archive/deep/one.txt") == "one" && b.read("archive/two.txt") == "two", "\(b.tree())")
        #expect(mode(b.documents + "/archive") == 0o555 && mode(b.documents + "/archive/deep") == 0o555)
        #expect(b.sync().published == 0, "the modes put back are the synced ones: nothing to publish")
    }

    /// Changed on one device (which lifted the mode itself to edit): the edit, a new file
    /// and a removal land in the other device's read-only folder, which stays read-only.
    @Test func changesLandInAReadOnlyFolder() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try readOnlyArchive(a, b, holding: ["one.txt": "one", "two.txt": "two"])
        defer { makeWritable(a, b) }
        chmod(a.documents + "/archive", 0o755)
        try a.write("archive/one.txt", "one, edited")
        try a.write("archive/three.txt", "three")
        unlink(a.documents + "/archive/two.txt")
        chmod(a.documents + "/archive", 0o555)
        a.sync(settled: true)
        let report = b.sync()

        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(b.tree() == ["archive": "<folder>", "archive/one.txt": "one, edited", "archive/three.txt": "three"])
        #expect(mode(b.documents + "/archive") == 0o555)
    }

    /// Removed on one device: the other removes the read-only folder and what it holds.
    @Test func aReadOnlyFolderRemovedElsewhereGoes() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try readOnlyArchive(a, b, holding: ["one.txt": "one"])
        defer { makeWritable(a, b) }
        chmod(a.documents + "/archive", 0o755)
        try FileManager.default.removeItem(atPath: a.documents + "/archive")
        a.sync(settled: true)
        let report = b.sync(settled: true)

        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(b.tree().isEmpty, "\(b.tree())")
    }

    /// `ubq resolve --keep all` and `ubq restore` write outside a pass: into a read-only
    /// folder too, which keeps its mode.
    @Test func resolveAndRestoreWriteInAReadOnlyFolder() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try readOnlyArchive(a, b, holding: ["doc.txt": "base"])
        defer { makeWritable(a, b) }
        try a.write("archive/doc.txt", "from a")  // in place: the file itself is writable
        try b.write("archive/doc.txt", "from b")
        a.sync(settled: true)
        b.sync(settled: true)
        let path = "Documents/archive/doc.txt"
        let container = TestDevice.containerID
        let first = try #require(try b.engine.versions(container: container, path: path).last)

        try b.engine.resolve(container: container, path: path, keep: .all)
        #expect(b.tree().keys.contains { $0.hasPrefix("archive/doc (conflict from") }, "\(b.tree())")
        try b.engine.restore(container: container, path: path, version: try #require(VersionID(first.id)))
        #expect(b.read("archive/doc.txt") == "base")
        #expect(mode(b.documents + "/archive") == 0o555)
    }

    /// A diary's merge is written where the diary is, outside the pass's actions: into a
    /// read-only folder too.
    @Test func aDiaryInAReadOnlyFolderIsMerged() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        let day = ReferenceDate(secondsSince2001: 800_000_000)
        let one = DiaryEntry(id: "11111111-1111-4111-8111-111111111111", title: "Monday", body: "rain", created: day, modified: day)
        let two = DiaryEntry(id: "22222222-2222-4222-8222-222222222222", title: "Tuesday", body: "sun", created: day, modified: day)
        let diary = "archive/Diary.archive"
        try writeDiary(a, diary, [one])
        try readOnlyArchive(a, b, holding: [:])
        defer { makeWritable(a, b) }
        var edited = one
        edited.body = "rain, then a rainbow"
        try writeDiary(a, diary, [edited])
        try writeDiary(b, diary, [one, two])
        for device in [a, b, a, b] { device.sync(settled: true) }

        for device in [a, b] {
            let entries = try DiaryArchive.decode(Array(try Data(contentsOf: URL(fileURLWithPath: device.documents + "/" + diary))))
            #expect(entries.map(\.body) == ["rain, then a rainbow", "sun"], "\(device.name)")
            #expect(device.engine.conflicts().isEmpty, "\(device.name)")
        }
        #expect(mode(b.documents + "/archive") == 0o555)
    }

    /// A crash while a download's staging file sat in a lifted read-only folder: the next
    /// pass removes the leftover, though the folder is read-only again by then.
    @Test func aLeftoverInAReadOnlyFolderIsRemovedAfterACrash() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try readOnlyArchive(a, b, holding: ["one.txt": "one"])
        defer { makeWritable(a, b) }
        chmod(a.documents + "/archive", 0o755)
        try a.write("archive/one.txt", "one, edited")
        chmod(a.documents + "/archive", 0o555)
        a.sync(settled: true)
        let faults = FaultInjection()
        faults.crash(afterCheckpoints: 1)  // "between actions", then the staged file beside its target
        b.engine.faults = faults
        b.sync()
        try b.restart()
        let left = (try? FileManager.default.contentsOfDirectory(atPath: b.documents + "/archive")) ?? []
        let report = b.sync()

        #expect(left.contains { $0.hasPrefix(".ubq-sync-") }, "the crash left a staging file: \(left)")
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: b.documents + "/archive") == ["one.txt"])
        #expect(b.read("archive/one.txt") == "one, edited")
        #expect(mode(b.documents + "/archive") == 0o555)
    }

    /// Writes `entries` as the diary at `relative`, in place (its folder may be read-only).
    private func writeDiary(_ device: TestDevice, _ relative: String, _ entries: [DiaryEntry]) throws {
        try device.write(relative, "")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: device.documents + "/" + relative))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(DiaryArchive.encode(entries)))
        try handle.close()
    }

    /// `archive/` synced with `files`, then made read-only on a and synced again: b holds
    /// it read-only.
    private func readOnlyArchive(_ a: TestDevice, _ b: TestDevice, holding files: [String: String]) throws {
        for (name, text) in files { try a.write("archive/" + name, text) }
        a.sync()
        b.sync()
        chmod(a.documents + "/archive", 0o555)
        a.sync(settled: true)
        b.sync()
        #expect(mode(b.documents + "/archive") == 0o555)
    }

    private func mode(_ path: String) -> mode_t { (Sys.lstat(path)?.st_mode ?? 0) & 0o7777 }

    /// Lets the scratch folder's removal in.
    private func makeWritable(_ devices: TestDevice...) {
        for device in devices {
            for folder in ["/archive", "/archive/deep"] { chmod(device.documents + folder, 0o755) }
        }
    }
}
