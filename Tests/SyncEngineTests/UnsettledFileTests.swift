import Foundation
import RawPaths
import Testing

@testable import SyncEngine

/// A file changed less than the quiet period ago may still be being written (DESIGN.md,
/// decision 2): a pass leaves it, and everything it would plan for it, to a later pass.
@Suite("A file written a moment ago waits for a later pass")
struct UnsettledFileTests {
    @Test func itIsNeitherPublishedNorTakenForDeleted() throws {
        let scratch = Scratch()
        let a = try TestDevice("a", in: scratch.path, mirror: scratch.path + "/mirror", quietMilliseconds: 600_000)
        let b = try TestDevice("b", in: scratch.path, mirror: scratch.path + "/mirror")
        try a.write("doc.txt", "first")
        try a.write("other.txt", "other")
        a.sync(settled: true)
        b.sync()
        #expect(b.read("doc.txt") == "first")

        try a.write("doc.txt", "second")  // changed now: ten minutes from settled
        let report = a.sync()
        b.sync()

        #expect(report.deferred.contains(RawPath("Documents/doc.txt")), "\(report.deferred)")
        #expect(b.read("doc.txt") == "first", "neither the new content nor a deletion reached b")
        #expect(b.read("other.txt") == "other", "other.txt, written a moment ago too, is not deleted either")

        a.sync(settled: true)  // `ubq sync`: what changed a moment ago need not wait
        b.sync()
        #expect(b.read("doc.txt") == "second")
    }
}

/// A file that changed a moment ago because sync itself renamed it (as another device had)
/// is just as the base keeps it: no writer is at work on it, and it does not wait.
@Suite("What sync just placed is settled")
struct SyncsOwnChangeIsSettledTests {
    /// b renames `Notes/f.txt` to `Notes/g.txt` as a did, then a renames the folder. b's
    /// next pass, while its rename of the file is a moment old, renames the folder whole:
    /// left for later, the file would hold the folder back, and its presenter would hear
    /// of a deletion rather than a move.
    @Test func aFileSyncJustRenamedGoesAlongWithItsFoldersRename() throws {
        let scratch = Scratch()
        let a = try TestDevice("a", in: scratch.path, mirror: scratch.path + "/mirror")
        let b = try TestDevice("b", in: scratch.path, mirror: scratch.path + "/mirror", quietMilliseconds: 600_000)
        b.engine.racyWindowNanoseconds = 0  // the rename's signature vouches, however soon after the download
        try a.write("Notes/f.txt", "hello")
        a.sync()
        b.sync(settled: true)
        try FolderMoveSyncTests.rename(a, "Notes/f.txt", to: "Notes/g.txt")
        a.sync()
        b.sync(settled: true)  // `ubq sync`: b renames the file now
        let folder = try FolderMoveSyncTests.inode(b, "Notes")

        try FolderMoveSyncTests.rename(a, "Notes", to: "Renamed")
        a.sync()
        let report = b.sync()  // a live pass: the quiet period applies
        #expect(report.deferred.isEmpty, "\(report.deferred)")
        #expect(b.tree() == ["Renamed": "<folder>", "Renamed/g.txt": "hello"])
        #expect(try FolderMoveSyncTests.inode(b, "Renamed") == folder, "renamed whole")
    }
}
