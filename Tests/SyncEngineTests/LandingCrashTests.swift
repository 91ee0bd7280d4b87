import Foundation
import SyncPlanning
import Testing

@testable import SyncEngine

/// A landing (`Landing`, `Strays`) cut short by a crash between putting the item in the
/// renamed folder and publishing it: after the restart, the item found there is taken as
/// landed (`Landings.landedBefore`), and only its publish is made. Before, the item was
/// fetched again at its old path, which brought the old folder back, and the copy in the
/// renamed folder was published as new: every device ended with both.
@Suite struct LandingCrashTests {
    typealias Move = FolderMoveSyncTests
    typealias Meets = RenamedFolderMeetsChangesSyncTests

    /// b added `p/new.txt` and published it; a renamed `p` to `q`, unpublished, and its
    /// pass, landing b's file at `q/new.txt`, crashed before publishing.
    @Test func aLandingCutShortByACrashIsPublishedAfterTheRestart() throws {
        let scratch = Scratch()
        let (a, b) = try Self.crashedWhileLanding(scratch) { try $0.write("p/new.txt", "new") }
        #expect(a.read("q/new.txt") == "new", "landed before the crash: \(a.tree())")
        try Self.expectLandedOnce(a, b, on: Move.moved.merging(["q/new.txt": "new"]) { $1 })
    }

    /// The same for a folder: the crash comes after the folder landed, before what it holds.
    @Test func aFolderLandedBeforeACrashTakesWhatItHoldsAlong() throws {
        let scratch = Scratch()
        let (a, b) = try Self.crashedWhileLanding(scratch) { try $0.write("p/made/inner.txt", "inner") }
        #expect(a.tree()["q/made"] == "<folder>" && a.tree()["q/made/inner.txt"] == nil, "the crash came between the two: \(a.tree())")
        Self.syncTwice(a, b)
        Meets.expectConverged(a, b, on: Move.moved.merging(["q/made": "<folder>", "q/made/inner.txt": "inner"]) { $1 })
    }

    /// b renamed `p/x.txt` to `p/renamed.txt`; a renamed `p` to `q`, and its pass, renaming
    /// its `q/x.txt` to `q/renamed.txt` (a landing by rename), crashed before publishing.
    @Test func aRenameLandedBeforeACrashIsPublishedAfterTheRestart() throws {
        let scratch = Scratch()
        let (a, b) = try Self.crashedWhileLanding(scratch) { try Move.rename($0, "p/x.txt", to: "p/renamed.txt") }
        #expect(a.read("q/renamed.txt") == "x" && a.read("q/x.txt") == nil, "renamed before the crash: \(a.tree())")
        Self.syncTwice(a, b)
        Meets.expectConverged(a, b, on: Move.moved.filter { $0.key != "q/x.txt" }.merging(["q/renamed.txt": "x"]) { $1 })
    }

    /// a renamed `p` to `q` and published it; b added `p/new.txt` and published it, not
    /// having read a's log: a's stray landing (`Strays`) crashed before publishing.
    @Test func aStrayLandingCutShortByACrashIsPublishedAfterTheRestart() throws {
        let scratch = Scratch()
        let (a, b) = try Move.syncedPair(scratch)
        try Move.rename(a, "p", to: "q")
        a.sync()
        try b.write("p/new.txt", "new")
        try TwinVersionTests.unseen(a, by: b)
        try Self.syncCrashingOnceLanded(a)
        #expect(a.read("q/new.txt") == "new", "landed before the crash: \(a.tree())")
        try Self.expectLandedOnce(a, b, on: Move.moved.merging(["q/new.txt": "new"]) { $1 })
    }

    /// b does `onB` and publishes it; a renames `p` to `q`, and syncs, crashing once its
    /// first landing wrote the disk; then restarts.
    static func crashedWhileLanding(_ scratch: Scratch, onB: (TestDevice) throws -> Void) throws -> (TestDevice, TestDevice) {
        let (a, b) = try Move.syncedPair(scratch)
        try onB(b)
        b.sync()
        try Move.rename(a, "p", to: "q")
        try syncCrashingOnceLanded(a)
        return (a, b)
    }

    /// Syncs `device`, crashing its pass once its first landing has written the disk, and
    /// restarts it, as after a `kill -9`.
    static func syncCrashingOnceLanded(_ device: TestDevice) throws {
        let faults = FaultInjection()
        faults.interleave(at: "land: disk written, nothing published") { faults.crash(afterCheckpoints: 0) }
        device.engine.faults = faults
        device.sync()
        try device.restart()
    }

    static func syncTwice(_ a: TestDevice, _ b: TestDevice) {
        for _ in 0..<2 {
            a.sync()
            b.sync()
        }
    }

    /// After two rounds, both devices hold `expected`; `q/new.txt` went out once, as moved
    /// from `p/new.txt`, and nothing is in conflict.
    static func expectLandedOnce(_ a: TestDevice, _ b: TestDevice, on expected: [String: String]) throws {
        syncTwice(a, b)
        Meets.expectConverged(a, b, on: expected)
        let published = try RenamesComposeSyncTests.records(a).filter { $0.path == "Documents/q/new.txt" }
        #expect(published.count == 1 && published.first?.movedFrom == "Documents/p/new.txt", "\(published)")
        #expect(try a.engine.conflicts().isEmpty && b.engine.conflicts().isEmpty)
    }
}
