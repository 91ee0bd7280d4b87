import Foundation
import SyncPlanning
import Testing

@testable import SyncEngine

/// A device that goes back to a mirror it left (two USB disks taken in turn, a NAS and a
/// disk) carries on from the base it had there: what it changed meanwhile arrives as edits
/// and deletions. Before, it started over as a new device: each file it had edited became a
/// conflict with its own older version, and each it had deleted came back.
@Suite struct MirrorReturnTests {
    /// The device `device` restarted with `mirror` set elsewhere (its state kept).
    private func moved(_ device: TestDevice, to mirror: String, in scratch: Scratch) throws -> TestDevice {
        try TestDevice(device.name, in: scratch.path, mirror: mirror)
    }

    private func newMirror(_ name: String, in scratch: Scratch) throws -> String {
        let path = scratch.path + "/" + name
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aDeviceBackOnAMirrorItLeftSendsWhatItChangedMeanwhileAsChanges() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("edited.txt", "first")
        try a.write("deleted.txt", "to go")
        try a.write("both.txt", "first")
        try a.write("kept.txt", "as is")
        a.sync()
        b.sync()

        let away = try moved(a, to: try newMirror("usb-2", in: scratch), in: scratch)
        away.sync()
        try away.write("edited.txt", "edited away")
        try FileManager.default.removeItem(atPath: away.documents + "/deleted.txt")
        try away.write("both.txt", "a's")
        try away.write("new.txt", "made away")
        away.sync()
        try b.write("both.txt", "b's")  // meanwhile on the first mirror: a real conflict
        b.sync()

        let back = try moved(away, to: a.mirror, in: scratch)
        back.sync()
        b.sync()
        back.sync()

        #expect(b.read("edited.txt") == "edited away" && back.read("edited.txt") == "edited away")
        #expect(b.read("deleted.txt") == nil && back.read("deleted.txt") == nil, "the deletion is sent, not undone")
        #expect(b.read("new.txt") == "made away")
        #expect(back.tree() == b.tree())
        let conflicts = back.engine.conflicts().map(\.path)
        #expect(conflicts == ["Documents/both.txt"], "only the file both changed: \(conflicts)")
        #expect(try b.versions("deleted.txt").map(\.kind).contains("deleted"), "the deletion is in the history, with the content before it")
    }

    /// The base is kept for the mirror left, and handed back once: a device that leaves the
    /// first mirror again keeps its new base there, and the second's comes back in turn.
    @Test func eachMirrorLeftKeepsItsBaseUntilTheDeviceComesBack() throws {
        let scratch = Scratch()
        let (a, _) = try scratch.pair()
        try a.write("doc.txt", "text")
        a.sync()
        let first = try #require(MirrorIdentity.id(inMarker: MirrorLayout(root: a.mirror).marker))
        let secondPath = try newMirror("usb-2", in: scratch)

        let away = try moved(a, to: secondPath, in: scratch)
        away.sync()
        let second = try #require(MirrorIdentity.id(inMarker: MirrorLayout(root: secondPath).marker))
        #expect(try away.engine.database.leftMirrors() == [first])

        let back = try moved(away, to: a.mirror, in: scratch)
        back.sync()
        #expect(try back.engine.database.leftMirrors() == [second], "the first's base is taken up, the second's kept")
        #expect(try back.engine.database.hasSyncedBefore())
    }

    /// At most `leftMirrorsKept` bases are kept, those of the mirrors left last; an empty
    /// base is not kept, and a kept one never replaces a base the device has.
    @Test func theBasesOfTheMirrorsLeftLongestAgoAreForgotten() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("left-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = try SyncDatabase(path: folder + "/sync.sqlite")
        func syncedOneFile(_ sequence: Int) throws {
            let state = EntryState.file(sha256: String(repeating: "a", count: 64), size: 1)
            try database.commit(
                container: "c",
                [BaseCommit("publish", path: "doc", version: VersionID(device: "d", sequence: UInt64(sequence)), state: state, signature: nil)])
        }
        func move(to id: String, forgettingBase: Bool = true) throws -> Date? {
            try database.remember(MirrorIdentity(path: "/m", id: id), forgettingBase: forgettingBase)
        }

        let ids = (0...SyncDatabase.leftMirrorsKept + 1).map { "mirror-\($0)" }
        _ = try move(to: ids[0], forgettingBase: false)
        for (sequence, id) in ids.dropFirst().enumerated() {
            try syncedOneFile(sequence + 1)
            #expect(try move(to: id) == nil, "never there before")
            #expect(try database.baseCount(container: "c") == 0)
        }
        let kept = try database.leftMirrors()
        #expect(kept == ids.dropLast().suffix(SyncDatabase.leftMirrorsKept).reversed(), "\(kept)")

        _ = try move(to: "after")
        #expect(try !database.leftMirrors().contains(ids.last!), "left with an empty base: nothing kept")

        let returned = try #require(kept.last)
        #expect(try move(to: returned) != nil)
        #expect(try database.base(container: "c")["doc"]?.entry.version == VersionID(device: "d", sequence: 2))
        #expect(try !database.leftMirrors().contains(returned), "taken up once")
        _ = try move(to: returned)  // told again that the mirror changed (a caller that failed after the take-up)
        #expect(try database.baseCount(container: "c") == 1, "a base already synced with that mirror is kept")

        let other = try #require(kept.first)
        #expect(try move(to: other, forgettingBase: false) == nil, "a base the device has is not replaced")
        #expect(try database.leftMirrors().contains(other))
    }
}
