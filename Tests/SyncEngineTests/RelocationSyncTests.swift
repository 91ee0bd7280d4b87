import Foundation
import Testing

@testable import SyncEngine

/// Device a renames folder `p` to `q` while device b, not syncing, adds to `p`: b's new
/// items follow the rename (`Relocation`), as in iCloud Drive, instead of bringing `p` back
/// on every device holding only them.
@Suite struct RelocationSyncTests {
    typealias Move = FolderMoveSyncTests

    @Test func newItemsMadeInARenamedFolderFollowItsRename() throws {
        let scratch = Scratch()
        let (a, b) = try Move.syncedPair(scratch)
        try b.write("p/new.txt", "new on b")
        try b.write("p/sub/made/deep.txt", "deeper on b")  // a new folder: it moves whole
        try Move.renameOnA(a)

        let report = b.sync()
        #expect(report.problems.isEmpty && report.followed == 2, "\(report)")
        let expected = Move.moved.merging(["q/new.txt": "new on b", "q/sub/made": "<folder>", "q/sub/made/deep.txt": "deeper on b"]) { $1 }
        #expect(b.tree() == expected)
        b.sync()  // publishes what the rename's round left to the next, if any
        a.sync()
        #expect(a.tree() == expected && b.tree() == expected)
        #expect(a.sync().published == 0 && b.sync().published == 0)
    }

    /// A file made again where one was deleted (b's base there is that deletion) is as new
    /// as any: it follows the rename too, and the old folder goes.
    @Test func aFileMadeAgainWhereOneWasDeletedFollows() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("x/a.txt", "first")
        try a.write("x/b.txt", "b")
        a.sync()
        b.sync()
        try FileManager.default.removeItem(atPath: b.documents + "/x/a.txt")
        b.sync()
        a.sync()
        try Move.rename(a, "x", to: "y")
        a.sync()
        try b.write("x/a.txt", "made again")

        #expect(b.sync().followed == 1)
        b.sync()
        a.sync()
        let expected = ["y": "<folder>", "y/a.txt": "made again", "y/b.txt": "b"]
        #expect(a.tree() == expected && b.tree() == expected, "a: \(a.tree())\nb: \(b.tree())")
    }

    /// As ubqd's passes between full ones: told only what changed here, with what other
    /// devices changed (the renamed folder among them, so the pass's next round finds the
    /// item at its new path and publishes it).
    @Test func aPassToldOnlyWhatChangedRelocatesToo() throws {
        let scratch = Scratch()
        let (a, b) = try Move.syncedPair(scratch)
        try b.write("p/new.txt", "new on b")
        try Move.renameOnA(a)

        #expect(b.sync(changed: ["Documents/p/new.txt"]).followed == 1)
        #expect(b.engine.hasPathsToLookAt(), "the relocated item's new path is due a pass, which ubqd runs though nothing changed")
        b.sync(changed: [])
        #expect(!b.engine.hasPathsToLookAt())
        a.sync()
        let expected = Move.moved.merging(["q/new.txt": "new on b"]) { $1 }
        #expect(a.tree() == expected && b.tree() == expected)
    }

    /// A file copied into the new folder after the scan (a `cp -r` under way): the folder
    /// does not move, so the copy goes on where it started, and nothing is lost.
    @Test func aNewFolderGainingAFileAfterTheScanStaysWhereItIs() throws {
        let scratch = Scratch()
        let (a, b) = try Move.syncedPair(scratch)
        try b.write("p/made/first.txt", "first")
        try Move.renameOnA(a)
        let faults = FaultInjection()
        faults.interleave(at: "between actions") { try? b.write("p/made/second.txt", "copied late") }
        b.engine.faults = faults

        #expect(b.sync().followed == 0)
        #expect(b.read("p/made/first.txt") == "first" && b.read("p/made/second.txt") == "copied late")
        b.engine.faults = nil
        b.sync()
        a.sync()
        #expect(a.tree() == b.tree())
    }

    /// Something else took the new item's place below the new folder: the item stays
    /// where it was made, and so does its folder, as without following. Nothing is lost.
    @Test func aNewItemWhosePlaceIsTakenStaysWhereItWasMade() throws {
        let scratch = Scratch()
        let (a, b) = try Move.syncedPair(scratch)
        try b.write("p/new.txt", "new on b")
        try Move.rename(a, "p", to: "q")
        try a.write("q/new.txt", "new on a")
        a.sync()

        b.sync()
        b.sync()
        a.sync()
        #expect(b.read("p/new.txt") == "new on b" && b.read("q/new.txt") == "new on a")
        #expect(a.tree() == b.tree())
    }
}
