import Foundation
import Glibc
import Testing

@testable import SyncEngine

/// Device a renames a folder; device b, which holds it as synced, renames it whole
/// (`FolderMove`): the folder and everything in it keep their inodes, where an item-by-item
/// rename would make a new folder. What b holds in it that sync did not see keeps the
/// folder where it is, and the items move one by one, as before.
@Suite struct FolderMoveSyncTests {
    static let files = ["p/x.txt": "x", "p/sub/y.txt": "y", "p/sub/deeper/z.txt": "z", "other.txt": "o"]
    static let moved: [String: String] = [
        "q": "<folder>", "q/x.txt": "x", "q/sub": "<folder>", "q/sub/y.txt": "y", "q/sub/deeper": "<folder>",
        "q/sub/deeper/z.txt": "z", "q/link": "-> x.txt", "other.txt": "o",
    ]

    @Test func aFolderRenamedElsewhereKeepsItsInodesHere() throws {
        let scratch = Scratch()
        let (a, b) = try Self.syncedPair(scratch)
        let before = try ["p", "p/x.txt", "p/sub/deeper", "p/link"].map { try Self.inode(b, $0) }
        try Self.renameOnA(a)
        let report = b.sync()
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(b.tree() == Self.moved)
        let after = try ["q", "q/x.txt", "q/sub/deeper", "q/link"].map { try Self.inode(b, $0) }
        #expect(after == before, "renamed whole, not made anew")
        #expect(b.sync().published == 0, "the base records what the rename left: nothing to publish")
        #expect(a.sync().published == 0 && a.tree() == Self.moved && b.viewTree() == Self.moved)
    }

    /// vim's swap file, which sync ignores, is in the folder on b: b cannot rename the
    /// folder whole without taking the swap file along, so it renames each synced item and
    /// keeps the folder, saying why.
    @Test func anIgnoredFileKeepsTheFolderAndItsItemsMoveOneByOne() throws {
        let scratch = Scratch()
        let (a, b) = try Self.syncedPair(scratch)
        try b.write("p/.x.txt.swp", "vim's swap file")
        let folder = try Self.inode(b, "p")
        try Self.renameOnA(a)
        let report = b.sync()
        #expect(report.problems.contains { $0.contains("was deleted on another device") && $0.contains(".x.txt.swp") }, "\(report.problems)")
        #expect(b.tree() == Self.moved.merging(["p": "<folder>", "p/.x.txt.swp": "vim's swap file"]) { $1 })
        #expect(try Self.inode(b, "p") == folder)
    }

    /// A file saved in the folder after b's scan, just before the rename: the disk no
    /// longer holds what the plan saw, so the folder stays, with the new file, and the
    /// next round publishes it.
    @Test func aFileSavedInTheFolderAfterTheScanStaysWhereItWasSaved() throws {
        let scratch = Scratch()
        let (a, b) = try Self.syncedPair(scratch)
        try Self.renameOnA(a)
        let faults = FaultInjection()
        faults.interleave(at: "between actions") { try? b.write("p/late.txt", "saved late") }
        b.engine.faults = faults
        b.sync()
        let expected = Self.moved.merging(["p": "<folder>", "p/late.txt": "saved late"]) { $1 }
        #expect(b.tree() == expected)
        b.sync()
        a.sync()
        #expect(a.tree() == expected && b.tree() == expected)
    }

    /// Killed between the rename and recording it: the next pass finds the items at their
    /// new paths, as the mirror has them, and only records that.
    @Test func aCrashAfterTheRenameConvergesOnRestart() throws {
        let scratch = Scratch()
        let (a, b) = try Self.syncedPair(scratch)
        try Self.renameOnA(a)
        let faults = FaultInjection()
        faults.interleave(at: Executor.folderMovedCheckpoint) { faults.crash(afterCheckpoints: 0) }
        b.engine.faults = faults
        b.sync()
        #expect(b.tree() == Self.moved, "the folder was renamed before the crash")
        try b.restart()
        let report = b.sync()
        #expect(report.published == 0 && report.adopted > 0, "\(report)")
        #expect(b.sync().published == 0 && a.sync().published == 0)
        #expect(a.tree() == Self.moved && b.tree() == Self.moved)
    }

    /// The device that renames a folder reads none of its files again: each has the
    /// signature the base kept with its old path (`MovedFiles`). A file renamed by itself
    /// is read: the rename moved its change time.
    @Test func renamingAFolderReadsNoneOfItsFiles() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        a.engine.racyWindowNanoseconds = 0  // every signature vouches: a scan reads only what changed
        for (path, text) in Self.files { try a.write(path, text) }
        a.sync()
        try Self.rename(a, "p", to: "q")
        let report = a.sync()
        #expect(report.hashed == 0 && report.published == 12, "3 folders and 3 files arrive, and their 6 old paths go")
        try Self.rename(a, "other.txt", to: "renamed.txt")
        #expect(a.sync().hashed == 1)
        b.sync()
        #expect(b.tree() == a.tree() && b.read("q/sub/deeper/z.txt") == "z")
    }

    // MARK: Helpers

    /// A folder moved back where it once was (`x/old` to `old`, later `old` to `x/old`):
    /// its files arrive where versions of them were deleted, and are still moves, so what
    /// the other device did meanwhile below the old path follows them there: a new item
    /// (`Relocation`), an edit and a deletion (`FollowedMove`). Before, the files were
    /// published as new, and each of these brought `old` back.
    @Test(arguments: ["new item", "edit", "deletion"])
    func changesFollowAFolderMovedBackWhereItOnceWas(_ change: String) throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("x/old/f.txt", "f")
        a.sync()
        try Self.rename(a, "x/old", to: "old")
        a.sync()
        b.sync()
        try Self.rename(a, "old", to: "x/old")
        a.sync()
        var expected = ["x": "<folder>", "x/old": "<folder>", "x/old/f.txt": "f"]
        switch change {
        case "new item":
            try b.write("old/made/new.txt", "new on b")
            expected.merge(["x/old/made": "<folder>", "x/old/made/new.txt": "new on b"]) { $1 }
        case "edit":
            try b.write("old/f.txt", "edited on b")
            expected["x/old/f.txt"] = "edited on b"
        default:
            try FileManager.default.removeItem(atPath: b.documents + "/old/f.txt")
            expected["x/old/f.txt"] = nil
        }

        #expect(b.sync().followed == 1)
        b.sync()
        a.sync()
        #expect(a.tree() == expected && b.tree() == expected, "a: \(a.tree())\nb: \(b.tree())")
    }

    static func syncedPair(_ scratch: Scratch) throws -> (TestDevice, TestDevice) {
        let (a, b) = try scratch.pair()
        for (path, text) in files { try a.write(path, text) }
        try FileManager.default.createSymbolicLink(atPath: a.documents + "/p/link", withDestinationPath: "x.txt")
        a.sync()
        b.sync()
        return (a, b)
    }

    /// Device a renames `p` to `q` and publishes it.
    static func renameOnA(_ a: TestDevice) throws {
        try rename(a, "p", to: "q")
        a.sync()
    }

    static func rename(_ device: TestDevice, _ from: String, to: String) throws {
        try FileManager.default.moveItem(atPath: device.documents + "/" + from, toPath: device.documents + "/" + to)
    }

    static func inode(_ device: TestDevice, _ relative: String) throws -> ino_t {
        var info = stat()
        guard lstat(device.documents + "/" + relative, &info) == 0 else { throw POSIXError(.ENOENT) }
        return info.st_ino
    }
}
