import APIModel
import Foundation
import Synchronization
import Testing

@testable import SyncEngine

/// Device b deletes what device a renames meanwhile: the deletion follows the rename, as
/// an edit would (`FollowedMove.Edit.localDeletion`), instead of the rename bringing the
/// deleted items back on every device under their new names. The content stays in the
/// history, where `ubq deleted` finds it.
@Suite struct DeletionFollowsRenameTests {
    typealias Move = FolderMoveSyncTests

    /// Devices a and b, both holding `x.txt` with `text`, synced.
    static func bothHoldX(_ text: String, _ scratch: Scratch) throws -> (TestDevice, TestDevice) {
        let (a, b) = try scratch.pair()
        try a.write("x.txt", text)
        a.sync()
        b.sync()
        return (a, b)
    }

    @Test func aFileDeletedHereWhileRenamedElsewhereStaysDeleted() throws {
        let scratch = Scratch()
        let (a, b) = try Self.bothHoldX("kept in the history", scratch)
        try FileManager.default.removeItem(atPath: b.documents + "/x.txt")
        try Move.rename(a, "x.txt", to: "y.txt")
        a.sync()

        #expect(b.sync().followed == 1)
        a.sync()
        #expect(a.tree().isEmpty && b.tree().isEmpty, "a: \(a.tree()), b: \(b.tree())")
        let deleted = try DeletedItemsTests.deleted(a)
        #expect(deleted.map(\.path) == ["Documents/y.txt"] && deleted.first?.deletion.device == b.engine.device.id, "\(deleted)")
        #expect(deleted.first?.lastVersion.size == 19)
    }

    /// b published its deletion while a renamed the file, each pass before it read the
    /// other's: the mirror's deletion may as well be a third device's rename, so nothing
    /// follows, and the rename brings the file back on b, as it did before deletions
    /// followed. Nothing is lost either way.
    @Test func aDeletionPublishedBeforeTheRenameWasSeenDoesNotFollow() throws {
        let scratch = Scratch()
        let (a, b) = try Self.bothHoldX("x", scratch)
        try FileManager.default.removeItem(atPath: b.documents + "/x.txt")
        let faults = FaultInjection()
        let renamed = Mutex(false)
        faults.interleave(at: "between actions") {
            guard !renamed.withLock({ $0 }) else { return }
            renamed.withLock { $0 = true }
            try? Move.rename(a, "x.txt", to: "y.txt")
            a.sync()  // reads no deletion: b's pass publishes it next
        }
        b.engine.faults = faults
        #expect(b.sync().published == 1)
        b.engine.faults = nil

        #expect(b.sync().followed == 0)
        a.sync()
        #expect(a.tree() == ["y.txt": "x"] && b.tree() == ["y.txt": "x"], "a: \(a.tree()), b: \(b.tree())")
    }

    /// b renamed the file too: its own rename, published as one, and both names stay (a
    /// rename deletes nothing). So also when b's new name once held a file, deleted since:
    /// b's base there is a deletion, and the file there is still b's rename, not new.
    @Test(arguments: [false, true])
    func aFileRenamedHereWhileRenamedElsewhereIsNoDeletion(toAPathOnceDeleted: Bool) throws {
        let scratch = Scratch()
        let (a, b) = try Self.bothHoldX("x", scratch)
        if toAPathOnceDeleted {
            try b.write("z.txt", "once")
            b.sync()
            try FileManager.default.removeItem(atPath: b.documents + "/z.txt")
            b.sync()
            a.sync()
        }
        try Move.rename(b, "x.txt", to: "z.txt")
        try Move.rename(a, "x.txt", to: "y.txt")
        a.sync()

        #expect(b.sync().followed == 0)
        a.sync()
        #expect(a.tree() == ["y.txt": "x", "z.txt": "x"] && b.tree() == a.tree(), "a: \(a.tree()), b: \(b.tree())")
    }

    /// As in ubqd: the deletions wait for their burst to end, and the next pass, told only
    /// of the paths the first left waiting, follows them all the same, folders included.
    @Test func followedDeletionsWaitForTheirBurstThenFollow() throws {
        let scratch = Scratch()
        let (a, b) = try Move.syncedPair(scratch)
        b.engine.replaceDeletionGuard(DeletionGuard(quiet: .seconds(3600)))  // the burst never ends by itself here
        try FileManager.default.removeItem(atPath: b.documents + "/p")
        // A publish and a download: the pass goes on to another round.
        try b.write("new.txt", "made meanwhile")
        try a.write("elsewhere.txt", "arrives")
        try Move.renameOnA(a)

        let first = b.sync()
        #expect(first.followed == 0 && b.tree() == ["other.txt": "o", "new.txt": "made meanwhile", "elsewhere.txt": "arrives"], "\(first)")
        a.sync()
        #expect(a.read("q/x.txt") == "x", "nothing deleted while the burst waits")
        // `ubq sync` settles every change first: the burst is over.
        let second = b.sync(settled: true, changed: Set(first.deferred))
        #expect(second.followed == 3, "x.txt, sub/y.txt and sub/deeper/z.txt: \(second)")
        b.sync()
        a.sync()
        #expect(a.tree() == ["other.txt": "o", "new.txt": "made meanwhile", "elsewhere.txt": "arrives"] && b.tree() == a.tree(), "a: \(a.tree()), b: \(b.tree())")
    }

    /// Twelve followed deletions in a container of 23 items: fewer than the guard's
    /// minimum, so they go through, once. Their publish at the new paths in the next round
    /// was counted again (24 then, over half the container) and held.
    @Test func followedDeletionsAreWeighedOnce() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        for n in 0..<12 { try a.write("p/f\(n).txt", "\(n)") }
        for n in 0..<10 { try a.write("other\(n).txt", "\(n)") }
        a.sync()
        b.sync()
        try FileManager.default.removeItem(atPath: b.documents + "/p")
        try Move.rename(a, "p", to: "q")
        a.sync()

        let report = b.sync()
        #expect(report.heldDeletions == 0 && report.followed == 12, "\(report)")
        a.sync()
        #expect(a.tree().count == 10 && b.tree() == a.tree(), "a: \(a.tree().keys.sorted())")
    }

    /// The file is still on b's disk, only ignored there now: it was not deleted, and the
    /// renamed copy stays.
    @Test func aFileIgnoredHereIsNoDeletion() throws {
        let scratch = Scratch()
        let (a, b) = try Self.bothHoldX("x", scratch)
        try Data("Documents/x.txt\n".utf8).write(to: URL(fileURLWithPath: b.root + "/" + TestDevice.containerID.folderName + "/.ubqignore"))
        b.engine.ignoreRulesChanged(TestDevice.containerID)
        try Move.rename(a, "x.txt", to: "y.txt")
        a.sync()

        #expect(b.sync().followed == 0)
        a.sync()
        #expect(a.tree() == ["y.txt": "x"] && b.read("y.txt") == "x" && b.read("x.txt") == "x", "a: \(a.tree()), b: \(b.tree())")
    }

    /// The file is back at the old path after the plan was made: the deletion does not
    /// follow, and the next pass finds an edit, which follows the rename as edits do.
    @Test func aFileBackAtTheOldPathIsNoDeletion() throws {
        let scratch = Scratch()
        let (a, b) = try Self.bothHoldX("x", scratch)
        try FileManager.default.removeItem(atPath: b.documents + "/x.txt")
        try Move.rename(a, "x.txt", to: "y.txt")
        a.sync()
        let faults = FaultInjection()
        faults.interleave(at: "between actions") { try? b.write("x.txt", "back") }
        b.engine.faults = faults

        #expect(b.sync().followed == 0)
        b.engine.faults = nil
        b.sync()
        a.sync()
        #expect(a.tree() == ["y.txt": "back"] && b.tree() == a.tree(), "a: \(a.tree()), b: \(b.tree())")
    }

    /// Many files deleted here that another device renamed: the mass-deletion guard holds
    /// them as it holds any deletion of this device's, and `--restore-deletes` brings them
    /// back, where the rename put them.
    @Test func manyFollowedDeletionsAreHeldAndCanBeRestored() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        for n in 0..<30 { try a.write("p/f\(n).txt", "\(n)") }
        a.sync()
        b.sync()
        try FileManager.default.removeItem(atPath: b.documents + "/p")
        // A publish and a download: the pass goes on to another round.
        try b.write("new.txt", "made meanwhile")
        try Move.rename(a, "p", to: "q")
        try a.write("elsewhere.txt", "arrives")
        a.sync()

        let held = b.sync()
        #expect(held.heldDeletions == 31 && held.followed == 0, "30 files and their folder: \(held)")
        a.sync()
        #expect(a.tree().count == 33, "nothing deleted on a: \(a.tree().count)")
        let restored = b.sync(restoreDeletes: true)
        #expect(restored.restoredDeletions == 31, "\(restored)")
        b.sync()
        #expect(b.tree() == a.tree() && b.read("q/f7.txt") == "7")
    }

    /// b removed a whole folder that a renamed: nothing of it comes back, not its folders
    /// nor its links, but what a added to it after the rename stays, in its folder.
    @Test func aFolderRemovedHereWhileRenamedElsewhereStaysRemovedButWhatWasAddedStays() throws {
        let scratch = Scratch()
        let (a, b) = try Move.syncedPair(scratch)
        try FileManager.default.removeItem(atPath: b.documents + "/p")
        try Move.rename(a, "p", to: "q")
        try a.write("q/sub/added.txt", "added after the rename")
        a.sync()

        b.sync()
        b.sync()
        a.sync()
        let expected = ["other.txt": "o", "q": "<folder>", "q/sub": "<folder>", "q/sub/added.txt": "added after the rename"]
        #expect(b.tree() == expected && a.tree() == expected, "a: \(a.tree()), b: \(b.tree())")
        #expect(Set(try DeletedItemsTests.deleted(a).map(\.path)).isSuperset(of: ["Documents/q/x.txt", "Documents/q/sub/y.txt"]))
    }
}
