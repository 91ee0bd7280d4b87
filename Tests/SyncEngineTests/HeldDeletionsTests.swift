import Foundation
import SyncPlanning
@testable import SyncEngine
import Testing

/// A tree deleted by mistake, whose deletions the mass-deletion guard holds, can be
/// brought back: all of it (`ubq sync --restore-deletes`) or file by file (`ubq restore`).
@Suite struct HeldDeletionsTests {
    /// Devices a and b, synced, holding 30 files in `folder/` (some in `folder/sub/`) and
    /// `keep.txt`; then a deletes `folder` and syncs: the guard holds the deletions.
    static func treeDeletedByMistake(_ scratch: Scratch) throws -> (TestDevice, TestDevice, before: [String: String]) {
        let (a, b) = try scratch.pair()
        for n in 0..<30 { try a.write(n < 10 ? "folder/sub/f\(n).txt" : "folder/f\(n).txt", "\(n)") }
        try a.write("keep.txt", "kept")
        a.sync()
        b.sync()
        let before = a.tree()
        try FileManager.default.removeItem(atPath: a.documents + "/folder")
        #expect(a.sync().heldDeletions == 32, "30 files and 2 folders")
        return (a, b, before)
    }

    @Test func restoringHeldDeletionsBringsTheTreeBack() throws {
        let scratch = Scratch()
        let (a, b, before) = try Self.treeDeletedByMistake(scratch)
        try a.write("new.txt", "made meanwhile")

        let report = a.sync(restoreDeletes: true)
        #expect(report.restoredDeletions == 32 && report.heldDeletions == 0)
        #expect(a.tree() == before.merging(["new.txt": "made meanwhile"]) { $1 })
        #expect(a.sync().heldDeletions == 0, "nothing waits any more")
        #expect(a.sync().changedAnything == false)
        b.sync()
        #expect(b.tree() == a.tree(), "nothing was deleted anywhere")
    }

    /// A folder whose deletion the guard holds is no deleted folder yet: restoring its
    /// version says how to bring it back, instead of that it is there.
    @Test func aFolderRestoreOfAHeldDeletionSaysHowToBringItBack() throws {
        let scratch = Scratch()
        let (a, _, _) = try Self.treeDeletedByMistake(scratch)
        let version = try #require(try a.versions("folder").first.flatMap { VersionID($0.id) })
        let error = #expect(throws: SyncError.self) {
            try a.engine.restore(container: TestDevice.containerID, path: "Documents/folder", version: version)
        }
        #expect(error?.message.contains("waits for `ubq sync --confirm-deletes` (`ubq sync --restore-deletes` brings it back)") == true, "\(String(describing: error))")
    }

    /// The whole container folder deleted: it is made again for its items.
    @Test func theContainerFolderItselfComesBack() throws {
        let scratch = Scratch()
        let (a, _) = try scratch.pair()
        for n in 0..<30 { try a.write("f\(n).txt", "\(n)") }
        a.sync()
        let before = a.tree()
        try FileManager.default.removeItem(atPath: a.root + "/" + TestDevice.containerID.folderName)
        #expect(a.sync().heldDeletions == 31, "30 files and Documents")

        let report = a.sync(restoreDeletes: true)
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(a.tree() == before)
    }

    /// The deletions stay held meanwhile; `--confirm-deletes` later publishes those left.
    @Test func oneFileCanBeRestoredWhileTheDeletionsWait() throws {
        let scratch = Scratch()
        let (a, b, _) = try Self.treeDeletedByMistake(scratch)
        let path = "Documents/folder/sub/f3.txt"
        let current = try #require(try a.engine.versions(container: TestDevice.containerID, path: path).first)

        try a.engine.restore(container: TestDevice.containerID, path: path, version: try #require(VersionID(current.id)))
        #expect(a.read("folder/sub/f3.txt") == "3")
        a.sync(confirmDeletes: true)
        b.sync()
        #expect(b.tree() == ["folder": "<folder>", "folder/sub": "<folder>", "folder/sub/f3.txt": "3", "keep.txt": "kept"])
    }
}
