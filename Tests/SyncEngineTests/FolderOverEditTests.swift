import Foundation
import Testing

@testable import SyncEngine

/// A file made a folder on one device while another device edited it. The edit wins by its
/// time, but a folder with something in it cannot give its place to a file, so the device
/// with the folder publishes it over the edit (`OccupiedFolders`). The edit is then kept
/// beside the folder as a conflict copy on every device: before, it was left in the path's
/// history only, where nothing pointed to it (`ubq conflicts` said none).
@Suite struct FolderOverEditTests {
    @Test func anEditOfAFileMadeAFolderElsewhereIsKeptBesideTheFolder() throws {
        let scratch = Scratch()
        let (a, b) = try Self.folderOnAEditOnB(scratch)
        a.sync()
        b.sync()
        a.sync()

        for device in [a, b] {
            let tree = device.tree()
            #expect(tree.filter { !$0.key.hasPrefix("T (conflict from ") } == ["T": "<folder>", "T/in.txt": "inside"], "\(device.name): \(tree)")
            #expect(tree.filter { $0.key.hasPrefix("T (conflict from ") }.map(\.value) == ["edited on b"], "\(device.name): \(tree)")
        }
        #expect(a.tree() == b.tree())
    }

    /// A pass stopped after the copy and before the folder went out runs again: the copy
    /// already there is not made twice.
    @Test func aCopyAlreadyBesideIsNotMadeAgain() throws {
        let scratch = Scratch()
        let (a, _) = try Self.folderOnAEditOnB(scratch)
        let faults = FaultInjection()
        faults.interleave(at: "between actions") { faults.crash(afterCheckpoints: 0) }
        a.engine.faults = faults
        a.sync()
        try a.restart()
        a.sync()
        #expect(a.tree().keys.filter { $0.hasPrefix("T (conflict from ") }.count == 1, "\(a.tree())")
    }

    /// Devices a and b after both synced file `T`, a made it a folder holding `in.txt` and
    /// published that, then b edited `T` and published the edit, the later change.
    static func folderOnAEditOnB(_ scratch: Scratch) throws -> (TestDevice, TestDevice) {
        let (a, b) = try scratch.pair()
        try a.write("T", "first")
        a.sync()
        b.sync()
        try FileManager.default.removeItem(atPath: a.documents + "/T")
        try a.write("T/in.txt", "inside")
        a.sync()
        let folderPublished = SyncClock.nowMilliseconds()
        while SyncClock.nowMilliseconds() <= folderPublished {}  // the edit is the later change: it wins
        try b.write("T", "edited on b")
        b.sync()
        return (a, b)
    }
}
