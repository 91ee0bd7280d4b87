import Foundation
import RawPaths
import SyncPlanning
import Testing

@testable import SyncEngine

/// A folder renamed on one device while the other moves files into or out of it, deletes
/// or edits them, or renames a subfolder: the changes compose, whichever device publishes
/// first (`Relocation`, `Landing`). `RenameCompositionTests` tries them at random; these
/// are the cases it found, one by one.
@Suite struct RenamedFolderMeetsChangesSyncTests {
    typealias Move = FolderMoveSyncTests

    /// What both devices hold once b's moving `other.txt` into `p` met a's renaming `p` to `q`.
    static let movedIn = Move.moved.merging(["q/other.txt": "o"]) { $1 }.filter { $0.key != "other.txt" }

    /// a renamed `p` to `q` and published it; b, not having synced since, moved `other.txt`
    /// into `p`. b's file follows the folder (`Relocation`), and its rename is published
    /// from where it was to where the folder is now: other devices rename their copy.
    @Test func aFileMovedIntoAFolderRenamedElsewhereFollowsIt() throws {
        let scratch = Scratch()
        let (a, b) = try Move.syncedPair(scratch)
        try Move.renameOnA(a)
        try Move.rename(b, "other.txt", to: "p/other.txt")
        let inode = try Move.inode(a, "other.txt")

        let report = b.sync()
        #expect(report.problems.isEmpty, "\(report.problems)")
        b.sync()
        a.sync()
        Self.expectConverged(a, b, on: Self.movedIn)
        #expect(try Move.inode(a, "q/other.txt") == inode, "a's own copy was renamed, not fetched again")
        let arrival = try RenamesComposeSyncTests.records(b).last { $0.path == "Documents/q/other.txt" }
        #expect(arrival?.movedFrom == "Documents/other.txt", "published as a rename: \(String(describing: arrival))")
    }

    /// As ubqd's passes: b's pass is told its own move (both paths, as the watcher tells a
    /// rename); the next pass is told nothing, and looks at what the first left to it.
    @Test func aFileMovedIntoAFolderRenamedElsewhereFollowsItInPassesToldWhatChanged() throws {
        let scratch = Scratch()
        let (a, b) = try Move.syncedPair(scratch)
        try Move.renameOnA(a)
        try Move.rename(b, "other.txt", to: "p/other.txt")

        b.sync(changed: ["Documents/other.txt", "Documents/p/other.txt"])
        b.sync(changed: [])
        a.sync()
        Self.expectConverged(a, b, on: Self.movedIn)
        let arrival = try RenamesComposeSyncTests.records(b).last { $0.path == "Documents/q/other.txt" }
        #expect(arrival?.movedFrom == "Documents/other.txt", "published as a rename: \(String(describing: arrival))")
    }

    /// b made a folder in `p` and moved `other.txt` into it: the folder follows `p`'s
    /// rename with the file, whose rename is published from where it was.
    @Test func aNewFolderHoldingAFileMovedInFollowsTheFolderRenamedElsewhere() throws {
        let scratch = Scratch()
        let (a, b) = try Move.syncedPair(scratch)
        try Move.renameOnA(a)
        try FileManager.default.createDirectory(atPath: b.documents + "/p/made", withIntermediateDirectories: true)
        try Move.rename(b, "other.txt", to: "p/made/other.txt")

        b.sync()
        b.sync()
        a.sync()
        var expected = Move.moved.merging(["q/made": "<folder>", "q/made/other.txt": "o"]) { $1 }
        expected["other.txt"] = nil
        Self.expectConverged(a, b, on: expected)
        let arrival = try RenamesComposeSyncTests.records(b).last { $0.path == "Documents/q/made/other.txt" }
        #expect(arrival?.movedFrom == "Documents/other.txt", "published as a rename: \(String(describing: arrival))")
    }

    /// b moved `other.txt` into `p` and published it; a, not having synced since, renamed
    /// `p` to `q`: the file lands in `q` (`Landing`).
    @Test func aFileMovedIntoAFolderRenamedHereLandsInIt() throws {
        let scratch = Scratch()
        let (a, b) = try Self.bFirst(scratch, onB: { try Move.rename($0, "other.txt", to: "p/other.txt") })
        Self.expectConverged(a, b, on: Self.movedIn)
    }

    /// b deleted `p/x.txt` and `p/sub/deeper` and published that; a renamed `p` to `q`
    /// meanwhile. a's copies, which its rename took to `q`, go too (`Landing.isDeletion`):
    /// published as new, they came back on every device. What was deleted stays in the
    /// history.
    @Test func itemsDeletedElsewhereGoFromTheFolderRenamedHere() throws {
        let scratch = Scratch()
        let (a, b) = try Self.bFirst(scratch, onB: { try Self.remove($0, "p/x.txt", "p/sub/deeper") })
        Self.expectConverged(a, b, on: Move.moved.filter { !["q/x.txt", "q/sub/deeper", "q/sub/deeper/z.txt"].contains($0.key) })
        let deleted = try a.engine.deletedItems(container: TestDevice.containerID, under: "").map(\.path)
        #expect(Set(deleted).isSuperset(of: ["Documents/p/x.txt", "Documents/p/sub/deeper/z.txt"]), "\(deleted)")
    }

    /// b deleted every file in `p` (not `p` itself): a's rename is told by its copies of
    /// what b deleted (`Landings.TakenAway`), as nothing is left to publish as moved. They
    /// go, and `p` ends as `q`, empty.
    @Test func aFolderEmptiedElsewhereEndsEmptyUnderItsNewName() throws {
        let scratch = Scratch()
        let (a, b) = try Self.bFirst(scratch, onB: { try Self.remove($0, "p/x.txt", "p/sub", "p/link") })
        Self.expectConverged(a, b, on: ["q": "<folder>", "other.txt": "o"])
    }

    /// The same, where a edited its copy after renaming the folder: the edit stays, as an
    /// edit beats a deletion.
    @Test func aCopyEditedHereStaysThoughDeletedElsewhere() throws {
        let scratch = Scratch()
        let (a, b) = try Self.bFirst(scratch, onB: { try Self.remove($0, "p/x.txt") }, onA: { try $0.write("q/x.txt", "edited on a") })
        Self.expectConverged(a, b, on: Move.moved.merging(["q/x.txt": "edited on a"]) { $1 })
    }

    /// b renamed `p/sub` to `p/sub2` and published it; a renamed `p` to `q` meanwhile: a
    /// renames its own `q/sub`'s files into `q/sub2` (`Landing`), and `q/sub` goes. Before,
    /// a took that for renames of the files themselves: every device ended with `q/sub`
    /// beside `p/sub2`.
    @Test func aSubfolderRenamedElsewhereLandsInTheFolderRenamedHere() throws {
        let scratch = Scratch()
        var inode: ino_t = 0
        let (a, b) = try Self.bFirst(scratch, onB: { try Move.rename($0, "p/sub", to: "p/sub2") }, onA: { inode = try Move.inode($0, "q/sub/y.txt") })
        Self.expectConverged(a, b, on: Self.movedWithSub2())
        #expect(try Move.inode(a, "q/sub2/y.txt") == inode, "a's own copy was renamed, not fetched again")
    }

    /// b renamed `p/x.txt` and published it; a renamed `p` to `q`, then edited `q/x.txt`.
    /// a's edit follows b's rename: `q/renamed.txt` holds it on both devices. Before, a took
    /// its `p/x.txt` for deleted (the content was nowhere new here) and that deletion
    /// followed b's rename: b's file went, and a's edit stayed under the old name.
    @Test func anEditHereFollowsARenameElsewhereInTheFolderRenamedHere() throws {
        let scratch = Scratch()
        let (a, b) = try Self.bFirst(
            scratch, onB: { try Move.rename($0, "p/x.txt", to: "p/renamed.txt") }, onA: { try $0.write("q/x.txt", "edited on a") })
        var expected = Move.moved.merging(["q/renamed.txt": "edited on a"]) { $1 }
        expected["q/x.txt"] = nil
        Self.expectConverged(a, b, on: expected)
    }

    /// The same for a file b moved out of `p`: a's edit lands in place, at `r/x.txt`.
    @Test func anEditHereFollowsAMoveOutOfTheFolderRenamedHere() throws {
        let scratch = Scratch()
        let (a, b) = try Self.bFirst(
            scratch,
            onB: { b in
                try FileManager.default.createDirectory(atPath: b.documents + "/r", withIntermediateDirectories: true)
                try Move.rename(b, "p/x.txt", to: "r/x.txt")
            },
            onA: { try $0.write("q/x.txt", "edited on a") })
        var expected = Move.moved.merging(["r": "<folder>", "r/x.txt": "edited on a"]) { $1 }
        expected["q/x.txt"] = nil
        Self.expectConverged(a, b, on: expected)
    }

    /// b edited `p/x.txt` and published it; a renamed `p` to `q`, then deleted `q/x.txt`.
    /// b's edit beats a's deletion, and comes back where a's rename put the file
    /// (`Landings.keptEdits`). Before, it came back at `p/x.txt`, making `p` again.
    @Test func anEditElsewhereOfAFileDeletedHereComesBackInTheFolderRenamedHere() throws {
        let scratch = Scratch()
        let (a, b) = try Self.bFirst(scratch, onB: { try $0.write("p/x.txt", "edited on b") }, onA: { try Self.remove($0, "q/x.txt") })
        Self.expectConverged(a, b, on: Move.moved.merging(["q/x.txt": "edited on b"]) { $1 })
    }

    /// b renamed `p/sub` to `p/sub2` and published it; a renamed `p` to `q`, then deleted
    /// `q/sub/y.txt`. a's deletion follows b's rename, and the rest of `sub` lands in
    /// `q/sub2`. Before, `p/sub` gone here was taken for deleted here too
    /// (`FolderDeletionFollowing`), and `p/sub2` stayed, holding what a had not deleted.
    @Test func aDeletionHereInASubfolderRenamedElsewhereFollowsIt() throws {
        let scratch = Scratch()
        let (a, b) = try Self.bFirst(scratch, onB: { try Move.rename($0, "p/sub", to: "p/sub2") }, onA: { try Self.remove($0, "q/sub/y.txt") })
        Self.expectConverged(a, b, on: Self.movedWithSub2(without: ["q/sub/y.txt"]))
    }

    /// b renamed `p/sub` to `p/sub2` and published it; a renamed `p` to `q`, then moved
    /// `q/sub/y.txt` out to `r/y.txt`: a's own rename of the file composes with b's rename
    /// of its folder (the file ends at `r/y.txt` only), while the rest of `sub` lands in
    /// `q/sub2`.
    @Test func aFileMovedOutHereComposesWithItsSubfolderRenamedElsewhere() throws {
        let scratch = Scratch()
        let (a, b) = try Self.bFirst(
            scratch, onB: { try Move.rename($0, "p/sub", to: "p/sub2") },
            onA: { a in
                try FileManager.default.createDirectory(atPath: a.documents + "/r", withIntermediateDirectories: true)
                try Move.rename(a, "q/sub/y.txt", to: "r/y.txt")
            })
        Self.expectConverged(a, b, on: Self.movedWithSub2(without: ["q/sub/y.txt"]).merging(["r": "<folder>", "r/y.txt": "y"]) { $1 })
    }

    /// b makes `onB` and publishes it; a, not having synced since, renames `p` to `q` and
    /// makes `onA`. Then a syncs (its pass meets b's changes, and must report no problem),
    /// b, and a again.
    static func bFirst(
        _ scratch: Scratch, onB: (TestDevice) throws -> Void, onA: (TestDevice) throws -> Void = { _ in },
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (TestDevice, TestDevice) {
        let (a, b) = try Move.syncedPair(scratch)
        try onB(b)
        b.sync()
        try Move.rename(a, "p", to: "q")
        try onA(a)
        let report = a.sync()
        #expect(report.problems.isEmpty, "\(report.problems)", sourceLocation: sourceLocation)
        b.sync()
        a.sync()
        return (a, b)
    }

    static func remove(_ device: TestDevice, _ paths: String...) throws {
        for path in paths { try FileManager.default.removeItem(atPath: device.documents + "/" + path) }
    }

    /// Both devices hold `expected`, and neither has anything left to publish.
    static func expectConverged(_ a: TestDevice, _ b: TestDevice, on expected: [String: String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(a.tree() == expected, "a: \(a.tree())", sourceLocation: sourceLocation)
        #expect(b.tree() == expected, "b: \(b.tree())", sourceLocation: sourceLocation)
        #expect(a.sync().published == 0 && b.sync().published == 0, "still publishing", sourceLocation: sourceLocation)
    }

    /// `Move.moved` with `q/sub` renamed to `q/sub2`, and without `gone`.
    static func movedWithSub2(without gone: Set<String> = []) -> [String: String] {
        var expected: [String: String] = [:]
        for (path, text) in Move.moved where !gone.contains(path) { expected[path.replacingOccurrences(of: "q/sub", with: "q/sub2")] = text }
        return expected
    }
}
