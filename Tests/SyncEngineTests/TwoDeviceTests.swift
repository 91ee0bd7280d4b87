import APIModel
import Crypto
import RawPaths
import Foundation
import Glibc
@testable import SyncEngine
import SyncPlanning
import UbiquitySettings
import Testing

@Suite("Sync between devices through one mirror")
struct TwoDeviceTests {
    @Test func aFileMadeOnOneDeviceAppearsOnTheOther() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("notes/hello.txt", "hello")
        #expect(a.sync().published >= 2, "the folder and the file")
        b.sync()
        #expect(b.read("notes/hello.txt") == "hello")
        #expect(a.tree() == b.tree())
    }

    @Test func editsRenamesAndDeletesPropagate() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("one.txt", "1")
        try a.write("two.txt", "2")
        a.sync()
        b.sync()
        try b.write("one.txt", "1, edited on b")
        try FileManager.default.moveItem(atPath: b.documents + "/two.txt", toPath: b.documents + "/deux.txt")
        b.sync()
        a.sync()
        #expect(a.tree() == ["one.txt": "1, edited on b", "deux.txt": "2"])
        try FileManager.default.removeItem(atPath: a.documents + "/one.txt")
        a.sync()
        b.sync()
        #expect(b.tree() == ["deux.txt": "2"])
    }

    @Test func concurrentEditsKeepTheLoserAsAConflict() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("doc.txt", "base")
        a.sync()
        b.sync()
        try a.write("doc.txt", "from a")
        try b.write("doc.txt", "from b, later")
        a.sync()
        b.sync()
        a.sync()
        #expect(a.tree() == b.tree(), "both devices settle on one winner")
        let winner = try #require(a.read("doc.txt"))
        #expect(["from a", "from b, later"].contains(winner))
        #expect(a.engine.conflicts().count == 1)
        #expect(b.engine.conflicts().count == 1)
    }

    @Test func anEditBeatsAConcurrentDelete() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("keep.txt", "v1")
        a.sync()
        b.sync()
        try FileManager.default.removeItem(atPath: a.documents + "/keep.txt")
        try b.write("keep.txt", "v2 from b")
        a.sync()
        b.sync()
        a.sync()
        #expect(a.read("keep.txt") == "v2 from b")
        #expect(b.read("keep.txt") == "v2 from b")
    }

    @Test func aLargeFileIsCopiedInTheKernelAndArrivesIntact() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<(3 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try bytes.write(to: URL(fileURLWithPath: a.documents + "/big.bin"))
        a.sync()
        b.sync()
        #expect(FileManager.default.contents(atPath: b.documents + "/big.bin") == bytes)
    }

    @Test func aDamagedObjectInTheMirrorIsRefusedNotDelivered() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("note.txt", "the real content")
        a.sync()
        let objects = try FileManager.default.subpathsOfDirectory(atPath: a.mirror + "/store/sha256").filter { $0.count > 60 }
        for object in objects {
            let path = a.mirror + "/store/sha256/" + object
            chmod(path, 0o644)
            try Data("tampered".utf8).write(to: URL(fileURLWithPath: path))
        }
        let report = b.sync()
        #expect(b.read("note.txt") == nil, "a damaged object must not reach the disk")
        #expect(report.problems.contains { $0.contains("does not hash to its name") }, "\(report.problems)")
    }

    @Test func aMirrorThatVanishedPausesAndDeletesNothing() throws {
        let scratch = Scratch()
        let (a, _) = try scratch.pair()
        try a.write("precious.txt", "data")
        a.sync()
        try FileManager.default.removeItem(atPath: a.mirror)
        try FileManager.default.createDirectory(atPath: a.mirror, withIntermediateDirectories: true)  // an empty mount point
        let report = a.sync()
        #expect(report.published == 0 && report.applied == 0)
        #expect(a.read("precious.txt") == "data")
        let status = try #require(a.engine.status().first)
        #expect(status.phase == .paused)
        #expect(status.message?.contains("mounted") == true, "\(status.message ?? "")")
    }

    /// A mirror set to a file, or to a folder of other things, is refused with the fix.
    @Test(arguments: [("file", "is not a folder; set `mirror`"), ("folder of other things", "is not empty and is not a mirror")])
    func aMirrorThatIsNoMirrorIsRefusedSayingWhy(what: String, message: String) throws {
        let scratch = Scratch()
        let mirror = scratch.path + "/mirror"
        if what == "file" {
            try Data("x".utf8).write(to: URL(fileURLWithPath: mirror))
        } else {
            try FileManager.default.createDirectory(atPath: mirror + "/photos", withIntermediateDirectories: true)
        }
        let a = try TestDevice("a", in: scratch.path, mirror: mirror)
        try a.write("doc.txt", "text")
        a.sync()
        let status = try #require(a.engine.status().first)
        #expect(status.phase == .paused)
        #expect(status.message?.contains(message) == true, "\(status.message ?? "")")
    }

    @Test func massDeletionsWaitForConfirmation() throws {
        let scratch = Scratch()
        let (a, b) = try pair(scratch, holding: 30)
        for n in 0..<30 { try FileManager.default.removeItem(atPath: a.documents + "/f\(n).txt") }
        try a.write("new.txt", "made meanwhile")
        let held = a.sync()
        #expect(held.heldDeletions == 30)
        b.sync()
        #expect(b.tree().count == 31, "nothing was deleted elsewhere")
        #expect(b.read("new.txt") == "made meanwhile", "uploads go ahead while deletions wait")
        a.sync(confirmDeletes: true)
        b.sync()
        #expect(b.tree() == ["new.txt": "made meanwhile"])
    }

    @Test func deletionsPublishedInSeveralPassesAddUpForTheGuard() throws {
        let scratch = Scratch()
        let (a, b) = try pair(scratch, holding: 30)
        // An `rm -rf` reaches the daemon's passes in steps; each alone is below the guard.
        for n in 0..<15 { try FileManager.default.removeItem(atPath: a.documents + "/f\(n).txt") }
        #expect(a.sync().heldDeletions == 0, "15 of 30: fewer than the minimum of 20")
        for n in 15..<25 { try FileManager.default.removeItem(atPath: a.documents + "/f\(n).txt") }
        #expect(a.sync().heldDeletions == 10, "25 of 30 within the window")
        b.sync()
        #expect(b.tree().count == 15)
        a.sync(confirmDeletes: true)
        b.sync()
        #expect(b.tree().count == 5)
    }

    @Test func deletionsWaitForTheirBurstToEndAndMeetTheGuardTogether() throws {
        let scratch = Scratch()
        let (a, b) = try pair(scratch, holding: 30)
        a.engine.replaceDeletionGuard(DeletionGuard(quiet: .seconds(3600)))  // the burst never ends by itself here
        for n in 0..<15 { try FileManager.default.removeItem(atPath: a.documents + "/f\(n).txt") }
        try a.write("new.txt", "made meanwhile")
        let first = a.sync()
        #expect(first.heldDeletions == 0 && first.deferred.count == 15, "waiting for the burst to end")
        for n in 15..<25 { try FileManager.default.removeItem(atPath: a.documents + "/f\(n).txt") }
        #expect(a.sync().deferred.count == 25)
        b.sync()
        #expect(b.tree().count == 31, "no deletion published; the upload went ahead")
        // `ubq sync` settles every change first: the burst is over, and weighed whole.
        #expect(a.sync(settled: true).heldDeletions == 25)
        b.sync()
        #expect(b.tree().count == 31)
    }

    /// The watcher settles a file whose writer went silent for 2 s while it still had it
    /// open (the kernel holds a writer back that long during a large copy): the pass must
    /// not publish what it holds so far.
    @Test func aFileAWriterStillHoldsOpenIsPublishedOnlyOnceClosed() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("copy.bin", "")
        let writer = try FileHandle(forWritingTo: URL(fileURLWithPath: a.documents + "/copy.bin"))
        try writer.write(contentsOf: Data("the first half".utf8))
        #expect(a.sync(holdingAWriter: true).deferred == ["Documents/copy.bin"])
        let waiting = try #require(a.engine.status().first)
        #expect(waiting.waiting == 1 && waiting.message?.contains("1 change waits to settle") == true, "\(waiting)")
        b.sync()
        #expect(b.read("copy.bin") == nil, "half a file is never published")
        try writer.write(contentsOf: Data(", then the rest".utf8))
        try writer.close()
        a.sync()
        b.sync()
        #expect(b.read("copy.bin") == "the first half, then the rest")
        #expect(a.engine.status().first?.waiting == nil, "nothing waits once it is published")
    }

    @Test func aSettledPassPublishesADeletionAnEarlierPassLeftWaiting() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("x.txt", "x")
        a.sync()
        b.sync()
        a.engine.replaceDeletionGuard(DeletionGuard(quiet: .seconds(3600)))
        try FileManager.default.removeItem(atPath: a.documents + "/x.txt")
        let changed: Set<RawPath> = ["Documents/x.txt"]
        #expect(a.sync(changed: changed).deferred == Array(changed))
        // `ubq sync` right after: the daemon's own pass took the changed path and left it waiting.
        a.sync(settled: true, changed: [])
        b.sync()
        #expect(b.tree()["x.txt"] == nil)
    }

    @Test func aRenamedFolderOfManyFilesIsNoMassDeletionAndMovesAtOnce() throws {
        let scratch = Scratch()
        let (a, b) = try pair(scratch, holding: 30, in: "old/")
        a.engine.replaceDeletionGuard(DeletionGuard(quiet: .seconds(3600)))  // real deletions wait, renames must not
        try FileManager.default.moveItem(atPath: a.documents + "/old", toPath: a.documents + "/new")
        let report = a.sync()
        #expect(report.heldDeletions == 0)
        #expect(report.deferred.isEmpty, "the folder left with its files")
        b.sync()
        #expect(!b.tree().keys.contains { $0 == "old" || $0.hasPrefix("old/") }, "moved on b, not copied")
        #expect(b.tree().keys.filter { $0.hasPrefix("new/") }.count == 30)
    }

    /// 21 folders for 10 files: their old paths, most of the container, are no mass
    /// deletion either (only files named their origin once, so the guard held them).
    @Test func aRenamedFolderOfManyFoldersIsNoMassDeletion() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        for n in 0..<10 { try a.write("photos/day\(n)/raw/picture.txt", "\(n)") }
        a.sync()
        b.sync()
        try FileManager.default.moveItem(atPath: a.documents + "/photos", toPath: a.documents + "/album")
        let report = a.sync()
        #expect(report.heldDeletions == 0 && report.deferred.isEmpty)
        b.sync()
        #expect(b.tree().keys.filter { $0.hasPrefix("album/") }.count == 30 && b.tree()["photos"] == nil)
    }

    @Test func heldDeletionsStayHeldAndAreReleasedThroughNarrowPasses() throws {
        let scratch = Scratch()
        let (a, b) = try pair(scratch, holding: 30)
        for n in 0..<30 { try FileManager.default.removeItem(atPath: a.documents + "/f\(n).txt") }
        #expect(a.sync().heldDeletions == 30)
        // What the daemon does next: passes over the few paths that changed since.
        try a.write("other.txt", "changed later")
        let narrow: Set<RawPath> = ["Documents/other.txt"]
        #expect(a.sync(changed: narrow).heldDeletions == 30, "still held, and still said so")
        a.sync(confirmDeletes: true, changed: narrow)
        b.sync()
        #expect(b.tree() == ["other.txt": "changed later"])
    }

    @Test func aRestartContinuesTheLogWithoutRepublishing() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("x.txt", "x")
        a.sync()
        try a.restart()
        #expect(a.sync().published == 0, "nothing changed, nothing published")
        try a.write("y.txt", "y")
        a.sync()
        b.sync()
        #expect(b.tree() == ["x.txt": "x", "y.txt": "y"])
    }

    /// The winner of a conflict is renamed on one device: its deletion at the old path
    /// leaves the conflict's loser, an edit, as the old path's current version (an edit
    /// beats a delete). The loser's device then rewrites the old path and must fetch the
    /// moved file, not rename the old path's file, which it has just rewritten, into place.
    /// Found by `KillNineModelTests` (seed 16221237093112712958): the devices never agreed.
    @Test func aRenameIsNotFollowedWithAFileTheSamePassRewrote() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.conflictedPair()
        let winnerText = try #require(a.read("doc.txt"))
        let (winner, loser) = winnerText == "from a" ? (a, b) : (b, a)
        let loserText = winnerText == "from a" ? "from b" : "from a"
        try FileManager.default.moveItem(atPath: winner.documents + "/doc.txt", toPath: winner.documents + "/moved.txt")
        winner.sync()
        loser.sync()
        winner.sync()
        loser.sync()
        #expect(loser.tree() == ["doc.txt": loserText, "moved.txt": winnerText])
        #expect(winner.tree() == loser.tree())
    }

    /// A rename arriving from the mirror moves the local file away; the deletion of its old
    /// path then finds nothing left to remove. That is done, not skipped: the base and the
    /// view do not keep the old path until the next pass.
    @Test func aRenameAppliedHereSettlesTheOldPathInTheSamePass() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("a/keep.txt", "keep")
        try a.write("b/other.txt", "other")
        a.sync()
        b.sync()
        try FileManager.default.moveItem(atPath: a.documents + "/a", toPath: a.documents + "/b/a")
        a.sync()
        let report = b.sync()
        #expect(report.skipped == 0)
        #expect(b.tree() == ["b": "<folder>", "b/other.txt": "other", "b/a": "<folder>", "b/a/keep.txt": "keep"])
        #expect(b.viewTree() == b.tree())
    }

    /// A batch is made durable with one `syncfs` or with an fsync a file
    /// (`BatchDurability`), its uploads and its downloads alike: either way, all of it
    /// arrives. A filesystem that cannot be identified takes the fsyncs: `statfs` made to
    /// fail takes that way here.
    @Test(arguments: [false, true]) func aBatchArrivesWholeWhicheverWayItIsSynced(fileByFile: Bool) throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        if fileByFile {
            for device in [a, b] {
                let faults = FaultInjection()
                faults.fail("statfs", with: ENOSYS)
                device.engine.faults = faults
            }
        }
        let count = 300
        for n in 0..<count { try a.write("many/f\(n).txt", "file \(n)") }
        #expect(a.sync().published >= count + 1, "the files and their folder")
        b.sync()
        #expect(b.tree().count == count + 1)
        #expect(b.read("many/f\(count - 1).txt") == "file \(count - 1)")
        #expect(b.viewTree() == b.tree())
    }

    /// A daemon killed mid-download leaves its staging file beside the destination. The
    /// next pass removes it, and only it: the watcher's cookies and other `.ubq-` names stay.
    @Test func aDownloadCutShortLeavesNoStagingFileBehind() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("notes/x.txt", "x")
        a.sync()
        b.sync()
        try b.write("notes/.ubq-sync-1234567890.tmp", "half a download")
        try b.write(".ubq-sync-42.tmp", "another")
        try b.write("notes/.ubq-cookie-7", "")
        try b.write("notes/.ubq-sync-notes.txt", "not a staging name")
        try b.restart()
        let report = b.sync()
        #expect(report.problems.isEmpty)
        #expect(b.tree() == ["notes": "<folder>", "notes/x.txt": "x", "notes/.ubq-cookie-7": "", "notes/.ubq-sync-notes.txt": "not a staging name"])
    }

    /// Two devices that both hold `count` files, `f0.txt`, `f1.txt`… in `folder`, synced.
    private func pair(_ scratch: Scratch, holding count: Int, in folder: String = "") throws -> (TestDevice, TestDevice) {
        let (a, b) = try scratch.pair()
        for n in 0..<count { try a.write("\(folder)f\(n).txt", "\(n)") }
        a.sync()
        b.sync()
        return (a, b)
    }
}

@Suite("Conflicts, versions, resolution")
struct ResolutionTests {
    @Test func versionsListEveryContentNewestFirst() throws {
        let scratch = Scratch()
        let (a, _) = try scratch.conflictedPair()
        let versions = try a.engine.versions(container: TestDevice.containerID, path: "Documents/doc.txt")
        #expect(versions.count == 3)
        #expect(versions.count { $0.current } == 1)
        #expect(versions.count { $0.conflict } == 1)
        #expect(versions.map(\.date) == versions.map(\.date).sorted(by: >))
    }

    @Test func keepingAllPutsTheLoserBesideTheFileOnEveryDevice() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.conflictedPair()
        try a.engine.resolve(container: TestDevice.containerID, path: "Documents/doc.txt", keep: .all)
        a.sync()
        b.sync()
        #expect(a.engine.conflicts().isEmpty)
        #expect(b.engine.conflicts().isEmpty)
        let tree = b.tree()
        #expect(tree.count == 2)
        #expect(Set(tree.values) == ["from a", "from b"])
        #expect(tree.keys.contains { $0.hasPrefix("doc (conflict from ") && $0.hasSuffix(").txt") }, "\(tree.keys)")
        #expect(a.tree() == tree)
    }

    @Test func keepingAllWorksForANameTooLongToTakeTheCopysSuffix() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        let name = String(repeating: "n", count: 240) + ".txt"
        try a.write(name, "base")
        a.sync()
        b.sync()
        try a.write(name, "from a")
        try b.write(name, "from b")
        a.sync()
        b.sync()
        a.sync()
        try a.engine.resolve(container: TestDevice.containerID, path: "Documents/" + name, keep: .all)
        a.sync()
        b.sync()

        #expect(b.engine.conflicts().isEmpty)
        #expect(Set(b.tree().values) == ["from a", "from b"], "\(b.tree().keys)")
        #expect(b.tree().keys.allSatisfy { $0.utf8.count <= ConflictName.longestName })
    }

    @Test func keepingAVersionMakesItCurrentEverywhere() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.conflictedPair()
        let loser = try #require(a.engine.conflicts().first?.others.first)
        try b.engine.resolve(container: TestDevice.containerID, path: "Documents/doc.txt", keep: .version(try #require(VersionID(loser.id))))
        b.sync()
        a.sync()
        let text = try #require(a.read("doc.txt"))
        #expect(b.read("doc.txt") == text)
        #expect(a.engine.conflicts().isEmpty)
    }

    @Test func restoringAnOldVersionMakesItCurrent() throws {
        let scratch = Scratch()
        let devices = try scratch.devices("a", "b")
        let (a, b) = (devices[0], devices[1])
        try a.write("doc.txt", "first")
        a.sync()
        try a.write("doc.txt", "second")
        a.sync()
        let first = try #require(try a.engine.versions(container: TestDevice.containerID, path: "Documents/doc.txt").last)
        try a.engine.restore(container: TestDevice.containerID, path: "Documents/doc.txt", version: try #require(VersionID(first.id)))
        b.sync()
        #expect(a.read("doc.txt") == "first")
        #expect(b.read("doc.txt") == "first")
    }

    @Test(arguments: [
        ("Documents/notes.txt", "Documents/notes (conflict from laptop 2026-11-22).txt"),
        ("README", "README (conflict from laptop 2026-11-22)"),
        (".profile", ".profile (conflict from laptop 2026-11-22)"),
        ("v1.2/\u{301}README", "v1.2/\u{301}README (conflict from laptop 2026-11-22)"),
    ])
    func conflictCopiesAreNamedLikeICloudDrive(_ path: String, _ expected: String) {
        #expect(ConflictNameForTests.make(path) == expected)
    }

    /// A copy's name fits in 255 bytes (NAME_MAX): the file's name gives up its end, cut
    /// between characters, and keeps its extension unless that is most of the name.
    @Test(arguments: [
        (String(repeating: "n", count: 251) + ".txt", ".txt"), (String(repeating: "\u{E9}", count: 126) + ".md", ".md"),
        ("a." + String(repeating: "x", count: 253), ""), (String(repeating: "e\u{301}", count: 85), ""),
    ])
    func aLongNamesConflictCopyFitsInAName(_ name: String, _ ext: String) {
        let copy = ConflictNameForTests.make("Documents/" + name)
        let copyName = String(copy.dropFirst("Documents/".count))
        #expect(copyName.utf8.count <= ConflictName.longestName && copyName.utf8.count > ConflictName.longestName - 4, "\(copyName.utf8.count)")
        #expect(copyName.hasSuffix(" (conflict from laptop 2026-11-22)" + ext), "\(copyName)")
        #expect(name.hasPrefix(copyName.prefix { $0 != " " }), "the copy's name starts as the file's does, cut between characters")
    }
}

@Suite("Passes scoped to what changed")
struct ScopedPassTests {
    @Test func aScopedPassLooksOnlyAtTheChangedPathsAndWhatOtherDevicesChanged() throws {
        let scratch = Scratch()
        let devices = try scratch.devices("a", "b")
        let (a, b) = (devices[0], devices[1])
        a.sync()
        b.sync()
        try a.write("x.txt", "x")
        try a.write("y.txt", "y")
        a.sync(changed: [RawPath("Documents/x.txt")])
        b.sync(changed: [])  // nothing local: only what a published
        #expect(b.tree() == ["x.txt": "x"], "y.txt was outside a's scope")
        a.sync()
        b.sync(changed: [])
        #expect(b.tree() == ["x.txt": "x", "y.txt": "y"])
    }

    @Test func changesMadeWhileTheMirrorWasAwayAreSyncedWhenItReturns() throws {
        let scratch = Scratch()
        let devices = try scratch.devices("a", "b")
        let (a, b) = (devices[0], devices[1])
        try a.write("before.txt", "1")
        a.sync()
        let parked = a.mirror + ".unmounted"
        try FileManager.default.moveItem(atPath: a.mirror, toPath: parked)
        try a.write("meanwhile.txt", "2")
        a.sync(changed: [RawPath("Documents/meanwhile.txt")])  // paused: the change is not lost
        try FileManager.default.moveItem(atPath: parked, toPath: a.mirror)
        a.sync(changed: [])  // nothing new reported, but the paused pass is owed
        b.sync()
        #expect(b.tree() == ["before.txt": "1", "meanwhile.txt": "2"])
    }

    @Test func aScopedFolderCoversEverythingBelowIt() throws {
        let scratch = Scratch()
        let devices = try scratch.devices("a", "b")
        let (a, b) = (devices[0], devices[1])
        try a.write("trip/day1.txt", "1")
        a.sync()
        b.sync()
        try FileManager.default.moveItem(atPath: a.documents + "/trip", toPath: a.documents + "/voyage")
        a.sync(changed: [RawPath("Documents/trip"), RawPath("Documents/voyage")])
        b.sync(changed: [])
        #expect(b.tree() == ["voyage": "<folder>", "voyage/day1.txt": "1"])
    }
}

/// Device a renames (or moves the folder of) a file while device b edits it: the edit
/// follows the rename, as in iCloud Drive and Dropbox. Every device ends with the edit at
/// the new path only, and the content before the edit stays in that path's history.
@Suite("An edit concurrent with a rename follows it")
struct EditFollowsRenameTests {
    static let containerPath = "Documents/"

    @Test func anEditFollowsARenameThatSyncedFirst() throws {
        let scratch = Scratch()
        let (a, b) = try Self.syncedPair(scratch, files: ["x.txt": "old"])
        try Self.move(a, "x.txt", to: "y.txt")
        try b.write("x.txt", "edited on b")
        a.sync()
        b.sync()
        #expect(b.tree() == ["y.txt": "edited on b"], "b follows in the pass that meets the rename")
        a.sync()
        try Self.expect([a, b], hold: ["y.txt": "edited on b"], keepingHistory: ["y.txt": "old"])
    }

    @Test func anEditFollowsARenameThatSyncedAfterIt() throws {
        let scratch = Scratch()
        let (a, b) = try Self.syncedPair(scratch, files: ["x.txt": "old"])
        try Self.move(a, "x.txt", to: "y.txt")
        try b.write("x.txt", "edited on b")
        b.sync()
        a.sync()
        #expect(a.tree() == ["y.txt": "edited on b"], "a moves the edit in the pass that publishes the rename")
        b.sync()
        try Self.expect([a, b], hold: ["y.txt": "edited on b"], keepingHistory: ["y.txt": "old"])
    }

    /// What ubqd runs: passes over the paths the watcher reported, and those the other
    /// device's log changed.
    @Test func anEditFollowsARenameInPassesScopedToWhatChanged() throws {
        let scratch = Scratch()
        let (a, b) = try Self.syncedPair(scratch, files: ["x.txt": "old", "other.txt": "other"])
        try Self.move(a, "x.txt", to: "y.txt")
        try b.write("x.txt", "edited on b")
        a.sync(changed: [RawPath("Documents/x.txt"), RawPath("Documents/y.txt")])
        b.sync(changed: [RawPath("Documents/x.txt")])
        a.sync(changed: [])
        try Self.expect([a, b], hold: ["y.txt": "edited on b", "other.txt": "other"], keepingHistory: ["y.txt": "old"])
    }

    @Test(arguments: [true, false])
    func editsFollowTheirFilesWhenTheFolderMoves(moverSyncsFirst: Bool) throws {
        let scratch = Scratch()
        let (a, b) = try Self.syncedPair(scratch, files: ["a/x.txt": "old", "a/keep.txt": "keep", "b/other.txt": "other"])
        try Self.move(a, "a", to: "b/a")
        try b.write("a/x.txt", "edited on b")
        let expected = [
            "b": "<folder>", "b/other.txt": "other", "b/a": "<folder>", "b/a/x.txt": "edited on b", "b/a/keep.txt": "keep",
        ]
        let (first, second) = moverSyncsFirst ? (a, b) : (b, a)
        first.sync()
        second.sync()
        #expect(second.tree() == expected, "the second to sync settles in one pass, the emptied folder gone")
        first.sync()
        try Self.expect([a, b], hold: expected, keepingHistory: ["b/a/x.txt": "old"])
    }

    /// A file b made in the folder meanwhile goes with it too (`Relocation`), though the
    /// folder's only other file is an edit that follows the rename: the follow tells that
    /// the folder moved. (Until the follow told it, `a` came back holding only the new file.)
    @Test func aFileMadeInAMovedFolderFollowsItsFolder() throws {
        let scratch = Scratch()
        let (a, b) = try Self.syncedPair(scratch, files: ["a/x.txt": "old", "b/other.txt": "other"])
        try Self.move(a, "a", to: "b/a")
        try b.write("a/x.txt", "edited on b")
        try b.write("a/new.txt", "made on b")
        for device in [a, b, a, b] { device.sync() }
        let expected = [
            "b": "<folder>", "b/other.txt": "other", "b/a": "<folder>", "b/a/x.txt": "edited on b", "b/a/new.txt": "made on b",
        ]
        try Self.expect([a, b], hold: expected, keepingHistory: ["b/a/x.txt": "old"])
    }

    /// c, which neither renamed nor edited, gets the edit at the new path whether it synced
    /// the rename before the edit arrived or not.
    @Test(arguments: [true, false])
    func aThirdDeviceEndsWithTheEditAtTheNewPath(thirdSyncsBetween: Bool) throws {
        let scratch = Scratch()
        let devices = try scratch.devices("a", "b", "c")
        let (a, b, c) = (devices[0], devices[1], devices[2])
        try a.write("x.txt", "old")
        for device in devices { device.sync() }
        try Self.move(a, "x.txt", to: "y.txt")
        try b.write("x.txt", "edited on b")
        a.sync()
        if thirdSyncsBetween { c.sync() }
        b.sync()
        for device in devices { device.sync() }
        try Self.expect(devices, hold: ["y.txt": "edited on b"], keepingHistory: ["y.txt": "old"])
    }

    // MARK: Helpers

    static func syncedPair(_ scratch: Scratch, files: [String: String]) throws -> (TestDevice, TestDevice) {
        let devices = try scratch.devices("a", "b")
        for (path, text) in files { try devices[0].write(path, text) }
        devices[0].sync()
        devices[1].sync()
        return (devices[0], devices[1])
    }

    static func move(_ device: TestDevice, _ from: String, to: String) throws {
        let target = device.documents + "/" + to
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: device.documents + "/" + from, toPath: target)
    }

    /// Every device holds exactly `tree` (and so does its view in the mirror), has no
    /// conflict, and lists each of `history`'s texts among the versions of its path.
    static func expect(_ devices: [TestDevice], hold tree: [String: String], keepingHistory history: [String: String]) throws {
        for device in devices {
            #expect(device.tree() == tree, "device \(device.name)")
            #expect(device.viewTree() == tree, "view of device \(device.name)")
            #expect(device.engine.conflicts().isEmpty, "device \(device.name)")
            for (path, text) in history {
                let versions = try device.engine.versions(container: TestDevice.containerID, path: containerPath + path)
                #expect(versions.contains { $0.sha256 == sha256(text) }, "\(path) on \(device.name): \(versions.map(\.kind))")
            }
        }
    }

    static func sha256(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
