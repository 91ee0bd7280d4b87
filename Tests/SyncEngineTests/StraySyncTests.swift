import Coordination
import Foundation
import RawPaths
import SyncPlanning
import Testing

@testable import SyncEngine

/// A folder renamed on one device while another adds items in it, both published before
/// either device read the other's change; or a landing skipped on the device that renamed
/// the folder (`Landing`), which then publishes its rename without the item. Either way the
/// mirror holds a new item below a folder deleted by a published rename (`Strays`): it
/// follows the rename on every device. Before, the first device to meet it made the old
/// folder again, and every device ended with it, holding only that item, beside the new one.
@Suite struct StraySyncTests {
    typealias Move = FolderMoveSyncTests
    typealias Meets = RenamedFolderMeetsChangesSyncTests

    /// a renamed `p` to `q` and published it; b added `p/new.txt` and published it, not
    /// having read a's log (`TwinVersionTests.unseen`). b's file follows the rename, and its
    /// move is published; a bystander, c, ends the same, having published nothing.
    @Test func aFileAddedWhileTheFolderWasRenamedFollowsIt() throws {
        let scratch = Scratch()
        let (a, b, c) = try Self.atOnce(scratch) { try $0.write("p/new.txt", "new") }
        let expected = Move.moved.merging(["q/new.txt": "new"]) { $1 }
        Self.expectConverged(a, b, c, on: expected)
        let arrivals = try RenamesComposeSyncTests.records(b).filter { $0.path == "Documents/q/new.txt" }
        #expect(!arrivals.isEmpty && arrivals.allSatisfy { $0.movedFrom == "Documents/p/new.txt" }, "published as moved: \(arrivals)")
        #expect(try a.engine.conflicts().isEmpty && b.engine.conflicts().isEmpty)
    }

    /// The same, where a syncs first after both published: a's pass meets b's file below
    /// the folder it deleted, and lands it (`Strays.landing`).
    @Test func aFileAddedWhileTheFolderWasRenamedLandsOnTheRenamingDevice() throws {
        let scratch = Scratch()
        let (a, b, c) = try Self.atOnce(scratch, renamingDeviceFirst: true) { try $0.write("p/new.txt", "new") }
        Self.expectConverged(a, b, c, on: Move.moved.merging(["q/new.txt": "new"]) { $1 })
        #expect(try a.engine.conflicts().isEmpty && b.engine.conflicts().isEmpty)
    }

    /// The same in passes told only what changed (as ubqd's between its full passes): a's
    /// pass, told nothing, meets b's file in a folder gone from its disk, whose rename the
    /// scoped pass would not see; it looks at everything instead (`SyncPass.widened`).
    @Test func aFileAddedWhileTheFolderWasRenamedLandsInAPassToldNothing() throws {
        let scratch = Scratch()
        let (a, b) = try Move.syncedPair(scratch)
        try Move.renameOnA(a)
        try b.write("p/new.txt", "new")
        try TwinVersionTests.unseen(a, by: b)
        a.sync(changed: [])
        #expect(a.tree() == Move.moved.merging(["q/new.txt": "new"]) { $1 }, "a: \(a.tree())")
        b.sync(changed: [])
        Meets.expectConverged(a, b, on: Move.moved.merging(["q/new.txt": "new"]) { $1 })
    }

    /// a renamed `p/sub` on, to `q/sub2`, after publishing `p`'s rename: b's file, added
    /// in `p/sub`, ends in `q/sub2`, whether a published the second rename before meeting
    /// it (`Strays.publishedRenames` follows one rename after another) or not (its
    /// landing takes the rename made here, `Landings.folderRenamesHere`).
    @Test(arguments: [true, false])
    func aFileAddedInASubfolderRenamedTwiceEndsUnderItsLastName(secondPublished: Bool) throws {
        let scratch = Scratch()
        let (a, b) = try Move.syncedPair(scratch)
        try Move.renameOnA(a)
        try Move.rename(a, "q/sub", to: "q/sub2")
        if secondPublished { a.sync() }
        try b.write("p/sub/new.txt", "new")
        try TwinVersionTests.unseen(a, by: b)
        for _ in 0..<2 {
            a.sync()
            b.sync()
        }
        Meets.expectConverged(a, b, on: Meets.movedWithSub2().merging(["q/sub2/new.txt": "new"]) { $1 })
    }

    /// Both devices move b's file, each to where it knows the folder to be: b follows a's
    /// rename of `p` to `q` (`Strays.published`) while a, having renamed `q` on to `r`,
    /// lands b's file at `r/new.txt`. b's move to `q/new.txt` is then a stray too, already
    /// landed: only its departure goes out (`Strays.landedElsewhere`). Before, `q` came back
    /// holding one copy, beside `r/new.txt`.
    @Test func aFileMovedByBothDevicesToTwoNamesOfItsFolderEndsUnderTheLast() throws {
        let scratch = Scratch()
        let (a, b) = try Move.syncedPair(scratch)
        try Move.renameOnA(a)
        let log = MirrorLayout(root: a.mirror).log(container: TestDevice.containerID.identifier, device: a.engine.device.id)
        let firstRename = try Data(contentsOf: URL(fileURLWithPath: log))
        try b.write("p/new.txt", "new")
        try TwinVersionTests.unseen(a, by: b)
        try Move.rename(a, "q", to: "r")
        a.sync()
        // b reads a's first rename only.
        let whole = try Data(contentsOf: URL(fileURLWithPath: log))
        try firstRename.write(to: URL(fileURLWithPath: log))
        b.sync()
        try whole.write(to: URL(fileURLWithPath: log))
        for _ in 0..<2 {
            a.sync()
            b.sync()
        }
        Meets.expectConverged(a, b, on: Self.movedOnToR.merging(["r/new.txt": "new"]) { $1 })
    }

    /// A new folder, with a file in it, follows whole.
    @Test func aFolderAddedWhileItsFolderWasRenamedFollowsIt() throws {
        let scratch = Scratch()
        let (a, b, c) = try Self.atOnce(scratch) { try $0.write("p/made/f.txt", "f") }
        Self.expectConverged(a, b, c, on: Move.moved.merging(["q/made": "<folder>", "q/made/f.txt": "f"]) { $1 })
    }

    /// A folder deleted, not renamed, while another device added a file in it: the file
    /// wins, and brings the folder back, as before.
    @Test func aFileAddedWhileTheFolderWasDeletedBringsItBack() throws {
        let scratch = Scratch()
        let (a, b, c) = try Self.atOnce(scratch, on: { try Meets.remove($0, "p") }) { try $0.write("p/new.txt", "new") }
        Self.expectConverged(a, b, c, on: ["p": "<folder>", "p/new.txt": "new", "other.txt": "o"])
    }

    /// b renamed `p/x.txt` to `p/renamed.txt` and published it; a renamed `p` to `q`, and
    /// saved `q/x.txt` while its pass ran, so its landing of b's rename was skipped, and its
    /// folder rename went out without it. b's file then follows the folder: both names stay,
    /// in `q`, as for two renames of one file. Before, `p` came back, holding `renamed.txt`.
    @Test func aRenameElsewhereWhoseLandingWasSkippedEndsInTheRenamedFolder() throws {
        let scratch = Scratch()
        let (a, b) = try Self.landingSkipped(scratch, onB: { try Move.rename($0, "p/x.txt", to: "p/renamed.txt") }, savedOnA: "q/x.txt", "saved late")
        Meets.expectConverged(a, b, on: Move.moved.merging(["q/x.txt": "saved late", "q/renamed.txt": "x"]) { $1 })
    }

    /// b added `p/new.txt` and published it; a renamed `p` to `q`, and made its own
    /// `q/new.txt` while its pass ran, so its landing of b's file was skipped. The two files
    /// meet at `q/new.txt` as a conflict: one is current, the other kept as a conflict
    /// version. Before, `p` came back, holding b's file.
    @Test func aNewFileElsewhereWhoseLandingWasSkippedMeetsTheOneInItsPlace() throws {
        let scratch = Scratch()
        let (a, b) = try Self.landingSkipped(scratch, onB: { try $0.write("p/new.txt", "new") }, savedOnA: "q/new.txt", "mine")
        #expect(a.tree()["p"] == nil && b.tree()["p"] == nil, "a: \(a.tree()), b: \(b.tree())")
        #expect(a.tree() == b.tree(), "a: \(a.tree()), b: \(b.tree())")
        let conflict = try #require(a.engine.conflicts().first { $0.path == "Documents/q/new.txt" })
        let texts = ([conflict.current] + conflict.others).compactMap { $0.contentPath.flatMap { FileManager.default.contents(atPath: $0) } }
        #expect(Set(texts.map { String(decoding: $0, as: UTF8.self) }) == ["new", "mine"])
    }

    /// b deleted `p/x.txt` and published it; a renamed `p` to `q` while an app read
    /// `q/x.txt` under coordination, so the landing's deletion timed out waiting for its
    /// claim, and a's rename went out with its copy unchanged in `q`. Once the app let go, a
    /// later pass deletes it (`Strays.renames(aboveDeletionsIn:)`): it neither stays nor
    /// brings `p` back.
    @Test func aDeletionElsewhereWhoseLandingAClaimHeldBackLandsInALaterPass() throws {
        let scratch = Scratch()
        let (a, b) = try Move.syncedPair(scratch)
        try Meets.remove(b, "p/x.txt")
        b.sync()
        try Move.rename(a, "p", to: "q")
        let locks = URL(fileURLWithPath: scratch.path + "/locks")
        try a.coordinate(with: FileCoordinator(lockDirectory: locks, timeout: .milliseconds(100)))
        let app = try FileCoordinator(lockDirectory: locks)
        let report = try app.coordinate(readingItemAt: URL(fileURLWithPath: a.documents + "/q/x.txt")) { _ in a.sync() }
        #expect(a.read("q/x.txt") == "x", "kept while the app read it")
        #expect(report.problems.contains { $0.contains("x.txt") }, "\(report.problems)")
        let arrivals = try RenamesComposeSyncTests.records(a).filter { $0.path == "Documents/q/sub/y.txt" }
        #expect(arrivals.map(\.movedFrom) == ["Documents/p/sub/y.txt"], "the rename went out without the landing: \(arrivals)")
        for _ in 0..<2 {
            a.sync()
            b.sync()
        }
        Meets.expectConverged(a, b, on: Move.moved.filter { $0.key != "q/x.txt" })
    }

    /// b deleted `p/sub` and published it; a renamed `p` to `q` with an editor's swap file
    /// open in `q/sub`. a's deletion landing removes what a synced there, and keeps the
    /// folder for the swap file, unpublished, as a folder deleted elsewhere is kept; once
    /// the swap file goes, so does the folder. Before, a published `q/sub` as a new,
    /// empty folder the round after its rename went out, and it stayed on every device.
    @Test(arguments: [false, true])
    func aFolderDeletedElsewhereAndKeptHereForASwapFileIsNotPublished(toldWhatChanged: Bool) throws {
        let scratch = Scratch()
        let (a, b, report) = try Self.keptForASwapFile(scratch)
        #expect(report.problems.contains { $0.contains(".y.txt.swp") }, "\(report.problems)")
        #expect(!a.engine.hasPathsToLookAt(), "looked at again at every poll while the swap file stays")
        let withoutSub = Move.moved.filter { !$0.key.hasPrefix("q/sub") }
        for _ in 0..<2 {
            b.sync()
            a.sync(changed: toldWhatChanged ? [] : nil)
        }
        // A pass told the folder itself changed (its mode, say) looks where the deletion is too.
        a.sync(changed: toldWhatChanged ? ["Documents/q/sub"] : nil)
        b.sync()
        #expect(b.tree() == withoutSub, "b: \(b.tree())")
        #expect(a.tree() == withoutSub.merging(["q/sub": "<folder>", "q/sub/.y.txt.swp": "swap"]) { $1 }, "a: \(a.tree())")
        try Meets.remove(a, "q/sub/.y.txt.swp")
        a.sync(changed: toldWhatChanged ? ["Documents/q/sub/.y.txt.swp"] : nil)
        Meets.expectConverged(a, b, on: withoutSub)
    }

    /// The same, where a then renames `q` to `r` while the swap file is still there: the
    /// kept folder goes along, still unpublished, and goes once the swap file does.
    @Test(arguments: [false, true])
    func aFolderKeptForASwapFileStaysUnpublishedWhenItsFolderIsRenamed(toldWhatChanged: Bool) throws {
        let scratch = Scratch()
        let (a, b, _) = try Self.keptForASwapFile(scratch)
        b.sync()
        try Move.rename(a, "q", to: "r")
        a.sync(changed: toldWhatChanged ? ["Documents/q", "Documents/r"] : nil)
        b.sync()
        let withoutSub = Self.movedOnToR.filter { !$0.key.hasPrefix("r/sub") }
        #expect(b.tree() == withoutSub, "b: \(b.tree())")
        try Meets.remove(a, "r/sub/.y.txt.swp")
        a.sync(changed: toldWhatChanged ? ["Documents/r/sub/.y.txt.swp"] : nil)
        Meets.expectConverged(a, b, on: withoutSub)
    }

    /// `Move.moved` with `q` renamed on to `r`.
    static let movedOnToR = Dictionary(uniqueKeysWithValues: Move.moved.map { path, text in (path.hasPrefix("q") ? "r" + path.dropFirst() : path, text) })

    /// b deletes `p/sub` and publishes it; a renames `p` to `q`, opens a swap file in
    /// `q/sub`, and syncs: its report.
    static func keptForASwapFile(_ scratch: Scratch) throws -> (TestDevice, TestDevice, PassReport) {
        let (a, b) = try Move.syncedPair(scratch)
        try Meets.remove(b, "p/sub")
        b.sync()
        try Move.rename(a, "p", to: "q")
        try a.write("q/sub/.y.txt.swp", "swap")
        return (a, b, a.sync())
    }

    /// b does `onB` and publishes it; a renames `p` to `q`, and its pass, once it has
    /// scanned, meets `text` saved at `saved` (so that its landing of b's change is skipped).
    /// Then b and a sync, twice.
    static func landingSkipped(
        _ scratch: Scratch, onB: (TestDevice) throws -> Void, savedOnA saved: String, _ text: String
    ) throws -> (TestDevice, TestDevice) {
        let (a, b) = try Move.syncedPair(scratch)
        try onB(b)
        b.sync()
        try Move.rename(a, "p", to: "q")
        let faults = FaultInjection()
        faults.interleave(at: "between actions") { try? a.write(saved, text) }
        a.engine.faults = faults
        a.sync()
        for _ in 0..<2 {
            b.sync()
            a.sync()
        }
        return (a, b)
    }

    /// Devices a, b and c share `Move.syncedPair`'s tree. a renames `p` to `q` (and does
    /// `on`), and publishes it; b does `onB` and publishes it without having read a's log.
    /// Then b, a and c sync (a first if `renamingDeviceFirst`), twice.
    static func atOnce(
        _ scratch: Scratch, renamingDeviceFirst: Bool = false, on: (TestDevice) throws -> Void = { try Move.rename($0, "p", to: "q") },
        onB: (TestDevice) throws -> Void
    ) throws -> (TestDevice, TestDevice, TestDevice) {
        let (a, b) = try Move.syncedPair(scratch)
        let c = try TestDevice("c", in: scratch.path, mirror: a.mirror)
        c.sync()
        try on(a)
        a.sync()
        try onB(b)
        try TwinVersionTests.unseen(a, by: b)
        for _ in 0..<2 {
            if renamingDeviceFirst { a.sync() }
            b.sync()
            a.sync()
            c.sync()
        }
        return (a, b, c)
    }

    /// All three devices hold `expected`, and none has anything left to publish.
    static func expectConverged(
        _ a: TestDevice, _ b: TestDevice, _ c: TestDevice, on expected: [String: String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        Meets.expectConverged(a, b, on: expected, sourceLocation: sourceLocation)
        #expect(c.tree() == expected, "c: \(c.tree())", sourceLocation: sourceLocation)
        #expect(c.sync().published == 0, "c still publishing", sourceLocation: sourceLocation)
    }
}
