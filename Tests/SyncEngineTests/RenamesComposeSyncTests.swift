import Foundation
import RawPaths
import SyncPlanning
import Testing

@testable import SyncEngine

/// One device renames a folder while another renames or adds items in it: the changes
/// compose, as in iCloud Drive and Dropbox, whichever device syncs first. Every device
/// ends with the folder under its new name holding the items under theirs; no old folder
/// comes back, and no file keeps both names.
@Suite struct RenamesComposeSyncTests {
    typealias Move = FolderMoveSyncTests

    /// The folder as b left it, renamed by a.
    static let composed: [String: String] = [
        "q": "<folder>", "q/renamed.txt": "x", "q/sub": "<folder>", "q/sub/Y.txt": "y", "q/sub/deeper": "<folder>",
        "q/sub/deeper/z.txt": "z", "q/link": "-> x.txt", "other.txt": "o", "q/new.txt": "new on b", "q/made": "<folder>",
        "q/made/in.txt": "in a new folder",
    ]

    /// b's changes in `p`: two renames (one only of the name's case) and new items.
    static func changeOnB(_ b: TestDevice) throws {
        try Move.rename(b, "p/x.txt", to: "p/renamed.txt")
        try Move.rename(b, "p/sub/y.txt", to: "p/sub/Y.txt")
        try b.write("p/new.txt", "new on b")
        try b.write("p/made/in.txt", "in a new folder")
    }

    /// a renamed `p` and published it first: b's renames follow (`FollowedMove.Edit.localRename`),
    /// and its new items too (`Relocation`).
    @Test func renamesMadeHereFollowTheirFoldersRenameElsewhere() throws {
        let scratch = Scratch()
        let (a, b) = try Move.syncedPair(scratch)
        try Move.renameOnA(a)
        try Self.changeOnB(b)

        let report = b.sync()
        #expect(report.problems.isEmpty, "\(report.problems)")
        b.sync()
        a.sync()
        #expect(b.tree() == Self.composed, "b: \(b.tree())")
        #expect(a.tree() == Self.composed, "a: \(a.tree())")
        #expect(a.sync().published == 0 && b.sync().published == 0)
    }

    /// b published first: a, which renamed `p` without publishing it yet, puts b's items
    /// in `q` (`Landing`), renaming its own copies of the files b renamed.
    @Test func itemsChangedElsewhereLandInTheFolderRenamedHere() throws {
        let scratch = Scratch()
        let (a, b) = try Move.syncedPair(scratch)
        try Self.changeOnB(b)
        b.sync()
        try Move.rename(a, "p", to: "q")
        let inode = try Move.inode(a, "q/x.txt")

        let report = a.sync()
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(try Move.inode(a, "q/renamed.txt") == inode, "a's own copy was renamed, not fetched again")
        b.sync()
        #expect(a.tree() == Self.composed, "a: \(a.tree())")
        #expect(b.tree() == Self.composed, "b: \(b.tree())")
        #expect(a.sync().published == 0 && b.sync().published == 0)
    }

    /// As ubqd's passes: a's pass is told only what another device changed (its own rename
    /// not seen by the watcher yet); the next is told its rename.
    @Test func itemsLandInAPassToldOnlyWhatChangedElsewhere() throws {
        let scratch = Scratch()
        let (a, b) = try Move.syncedPair(scratch)
        try Self.changeOnB(b)
        b.sync()
        try Move.rename(a, "p", to: "q")

        a.sync(changed: [])
        a.sync(changed: ["Documents/p", "Documents/q"])
        b.sync()
        #expect(a.tree() == Self.composed, "a: \(a.tree())")
        #expect(b.tree() == Self.composed, "b: \(b.tree())")
    }

    /// As ubqd's passes, the other way round: b's first pass is told only a's rename, while
    /// b's own changes in the folder are a moment old (left for later). The rename waits
    /// with them (`SyncPass.foldersLeftWhileWritten`): applied at once, it left `p` here
    /// holding b's changes. The pass once they settle is told what changed here.
    @Test func aRenameElsewhereWaitsForChangesHereInTheFolderToSettle() throws {
        let scratch = Scratch()
        let a = try TestDevice("a", in: scratch.path, mirror: scratch.path + "/mirror")
        let b = try TestDevice("b", in: scratch.path, mirror: scratch.path + "/mirror", quietMilliseconds: 600_000)
        b.engine.racyWindowNanoseconds = 0  // what sync downloads is settled, however soon after it is read
        for (path, text) in Move.files { try a.write(path, text) }
        try FileManager.default.createSymbolicLink(atPath: a.documents + "/p/link", withDestinationPath: "x.txt")
        a.sync()
        b.sync(settled: true)
        try Move.renameOnA(a)
        try Self.changeOnB(b)

        let first = b.sync(changed: [])
        #expect(first.applied == 0 && first.followed == 0 && first.published == 0, "\(first)")
        #expect(b.engine.hasPathsToLookAt(), "the rename is looked at again")
        let changed: Set<RawPath> = ["p/x.txt", "p/renamed.txt", "p/sub/y.txt", "p/sub/Y.txt", "p/new.txt", "p/made"]
        b.sync(settled: true, changed: Set(changed.map { RawPath("Documents/" + $0.readable) }))
        b.sync(settled: true, changed: [])
        a.sync()
        #expect(b.tree() == Self.composed, "b: \(b.tree())")
        #expect(a.tree() == Self.composed, "a: \(a.tree())")
    }

    /// b's renames are settled but its watcher has not told it yet: the pass told only
    /// a's rename finds them below the folder a renamed, which it looks at.
    @Test func renamesNotToldYetFollowTheirFoldersRenameElsewhere() throws {
        let scratch = Scratch()
        let (a, b) = try Move.syncedPair(scratch)
        try Move.renameOnA(a)
        try Self.changeOnB(b)

        b.sync(changed: [])
        b.sync(changed: [])
        a.sync()
        #expect(b.tree() == Self.composed, "b: \(b.tree())")
        #expect(a.tree() == Self.composed, "a: \(a.tree())")
    }

    /// A rename applied here long ago still names where it came from: a folder deleted
    /// elsewhere while a file in it is being written here holds back only its own paths,
    /// not where that old rename took a file (here, beside everything else).
    @Test func aFolderWaitingForAWriteHoldsBackOnlyItsOwnPaths() throws {
        let scratch = Scratch()
        let a = try TestDevice("a", in: scratch.path, mirror: scratch.path + "/mirror")
        let b = try TestDevice("b", in: scratch.path, mirror: scratch.path + "/mirror", quietMilliseconds: 600_000)
        b.engine.racyWindowNanoseconds = 0  // what sync downloads is settled, however soon after it is read
        try a.write("Inbox/a.pdf", "pdf")
        try a.write("other.txt", "first")
        a.sync()
        try Move.rename(a, "Inbox/a.pdf", to: "a.pdf")
        a.sync()
        b.sync(settled: true)
        try FileManager.default.removeItem(atPath: a.documents + "/Inbox")
        try a.write("other.txt", "second")
        a.sync()
        try b.write("Inbox/log.txt", "being written")

        let report = b.sync()
        #expect(b.read("other.txt") == "second", "\(report)")
        #expect(b.tree()["Inbox/log.txt"] == "being written")
    }

    /// b moved `p/x.txt` out to `r` and deleted `p` while a renamed `p` to `q`: the file
    /// stays where b put it, and `q`, which b deleted as `p`, goes too, not left empty.
    @Test func aFileMovedOutOfAFolderDeletedHereLeavesNoEmptyFolder() throws {
        let scratch = Scratch()
        let (a, b) = try Self.movedOutOfAFolderDeletedOnB(scratch)
        for device in [b, b, a] { device.sync() }
        #expect(a.tree() == Self.movedOut && b.tree() == Self.movedOut, "a: \(a.tree())\nb: \(b.tree())")
        // Published as a rename (other devices rename their copy), not as a new file and a
        // deletion the guard weighs.
        let arrival = try Self.records(b).first { $0.path == "Documents/r/x.txt" }
        #expect(arrival?.movedFrom == "Documents/q/x.txt", "\(String(describing: arrival))")
    }

    /// The same while b's deletions wait for their burst to end, as ubqd's do for a second:
    /// the rename's follow waits with the folder's deletion, which follows a's rename only
    /// in the plan that holds the follow too. (Run alone, the follow left `q` to be made
    /// empty here, and kept everywhere.)
    @Test func aFileMovedOutOfAFolderDeletedHereWaitsWithTheFoldersDeletion() throws {
        let scratch = Scratch()
        let (a, b) = try Self.movedOutOfAFolderDeletedOnB(scratch, deletionsWait: true)

        b.sync()
        #expect(b.tree()["q"] == nil, "\(b.tree())")
        b.sync(settled: true)  // `ubq sync`: the burst is over
        a.sync()
        #expect(a.tree() == Self.movedOut && b.tree() == Self.movedOut, "a: \(a.tree())\nb: \(b.tree())")
    }

    /// As ubqd's passes: each told what the watcher saw here, and what the one before left
    /// for later (its deletions waiting, and the renames waiting with them).
    @Test func aFileMovedOutWaitsWithTheFoldersDeletionInPassesToldWhatChanged() throws {
        let scratch = Scratch()
        let (a, b) = try Self.movedOutOfAFolderDeletedOnB(scratch, deletionsWait: true)
        let told: Set<RawPath> = ["Documents/p", "Documents/p/x.txt", "Documents/r", "Documents/r/x.txt"]

        let first = b.sync(changed: told)
        #expect(b.tree()["q"] == nil, "\(b.tree())")
        b.sync(settled: true, changed: Set(first.deferred))
        b.sync(settled: true, changed: [])
        a.sync()
        #expect(a.tree() == Self.movedOut && b.tree() == Self.movedOut, "a: \(a.tree())\nb: \(b.tree())")
    }

    /// b renamed `p/x.txt` to `p/y.txt` and copied it to `a/z.txt` while a renamed `p`: the
    /// name that moves with the folder is the rename's, not the copy.
    @Test func aCopyIsNotTakenForTheRenamedName() throws {
        let scratch = Scratch()
        let (a, b) = try Move.syncedPair(scratch)
        try Move.renameOnA(a)
        try Move.rename(b, "p/x.txt", to: "p/y.txt")
        try b.write("a/z.txt", "x")
        for device in [b, b, a] { device.sync() }
        #expect(a.tree()["q/y.txt"] == "x" && a.tree()["a/z.txt"] == "x" && a.tree()["q/x.txt"] == nil, "\(a.tree())")
        let records = try Self.records(b)
        #expect(records.first { $0.path == "Documents/q/y.txt" }?.movedFrom == "Documents/q/x.txt")
        #expect(records.first { $0.path == "Documents/a/z.txt" }?.movedFrom == nil)
    }

    /// b moved `p/x.txt` out to `r/x.txt` and published it while a renamed `p` to `q`: a
    /// moves its own copy, which its rename took to `q/x.txt`, to `r/x.txt` (`Landing`, in
    /// place), instead of fetching it and publishing `q/x.txt` as new.
    @Test func aFileMovedOutElsewhereLeavesTheFolderRenamedHere() throws {
        let scratch = Scratch()
        let (a, b) = try Move.syncedPair(scratch)
        try FileManager.default.createDirectory(atPath: b.documents + "/r", withIntermediateDirectories: true)
        try Move.rename(b, "p/x.txt", to: "r/x.txt")
        b.sync()
        try Move.rename(a, "p", to: "q")
        let inode = try Move.inode(a, "q/x.txt")

        a.sync()
        #expect(try Move.inode(a, "r/x.txt") == inode, "a's own copy was moved, not fetched again")
        b.sync()
        var expected = Move.moved.merging(["r": "<folder>", "r/x.txt": "x"]) { $1 }
        expected["q/x.txt"] = nil
        #expect(a.tree() == expected, "a: \(a.tree())")
        #expect(b.tree() == expected, "b: \(b.tree())")
        #expect(a.sync().published == 0 && b.sync().published == 0)
    }

    /// What both devices hold once b's moving `p/x.txt` out and deleting `p` met a's rename.
    static let movedOut = ["r": "<folder>", "r/x.txt": "x"]

    /// a renamed `p` (holding `x.txt`) to `q` and published it; b, not having synced since,
    /// moved `p/x.txt` to `r/x.txt` and deleted `p`. With `deletionsWait`, b's deletions
    /// wait for their burst to end until a pass is `settled`, as ubqd's do for a second.
    static func movedOutOfAFolderDeletedOnB(_ scratch: Scratch, deletionsWait: Bool = false) throws -> (TestDevice, TestDevice) {
        let (a, b) = try scratch.pair()
        if deletionsWait { b.engine.replaceDeletionGuard(DeletionGuard(quiet: .seconds(3600))) }  // the burst never ends by itself
        try a.write("p/x.txt", "x")
        a.sync()
        b.sync()
        try Move.rename(a, "p", to: "q")
        a.sync()
        try FileManager.default.createDirectory(atPath: b.documents + "/r", withIntermediateDirectories: true)
        try Move.rename(b, "p/x.txt", to: "r/x.txt")
        try FileManager.default.removeItem(atPath: b.documents + "/p")
        return (a, b)
    }

    /// Every record in the logs of the mirror `device` syncs through.
    static func records(_ device: TestDevice) throws -> [VersionRecord] {
        let folder = MirrorLayout(root: device.mirror).logFolder(container: TestDevice.containerID.identifier)
        var all: [VersionRecord] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasSuffix(".ndjson") {
            var reader = LogReader(path: folder + "/" + name, device: String(name.dropLast(".ndjson".count)))
            all += try reader.readNew().records
        }
        return all
    }
}
