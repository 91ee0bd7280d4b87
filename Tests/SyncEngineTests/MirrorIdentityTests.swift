import Foundation
import Glibc
import Testing

@testable import SyncEngine

/// A device remembers which mirror it synced with (its path, and the id its marker holds).
/// Set to a new folder, it starts a mirror there; where another mirror is found, it starts
/// over with it as a new device would. Before, a device that had synced once paused for
/// good at any empty folder ("is it mounted?"), with no way to move to a new disk short of
/// deleting its state; and took another mirror's versions for its own base's.
@Suite struct MirrorIdentityTests {
    /// A device with the state of `device` (same name, same folder) on another mirror: a
    /// restart with `mirror` set elsewhere.
    private func moved(_ device: TestDevice, to mirror: String, in scratch: Scratch) throws -> TestDevice {
        try TestDevice(device.name, in: scratch.path, mirror: mirror)
    }

    /// `phase: message` of the device's container.
    private func status(_ device: TestDevice) -> String {
        device.engine.status().first.map { "\($0.phase.rawValue): \($0.message ?? "")" } ?? "no status"
    }

    @Test func aDeviceSetToANewEmptyFolderStartsAMirrorThere() throws {
        let scratch = Scratch()
        let (a, _) = try scratch.pair()
        try a.write("doc.txt", "text")
        try a.write("notes/todo.txt", "todo")
        a.sync()
        let newMirror = scratch.path + "/new-nas"
        try FileManager.default.createDirectory(atPath: newMirror, withIntermediateDirectories: true)

        let moved = try moved(a, to: newMirror, in: scratch)
        let report = moved.sync()
        #expect(status(moved) == "idle: ")
        #expect(report.published >= 3, "everything is uploaded to the new mirror: \(report.published)")
        let c = try TestDevice("c", in: scratch.path, mirror: newMirror)
        c.sync()
        #expect(c.tree() == a.tree())
        #expect(MirrorIdentity.id(inMarker: MirrorLayout(root: newMirror).marker)?.count == 32)
    }

    /// The same path, empty: an unmounted disk. The message says how to move on purpose.
    @Test func anEmptyFolderWhereTheMirrorWasStillPauses() throws {
        let scratch = Scratch()
        let (a, _) = try scratch.pair()
        try a.write("doc.txt", "text")
        a.sync()
        try FileManager.default.removeItem(atPath: a.mirror)
        try FileManager.default.createDirectory(atPath: a.mirror, withIntermediateDirectories: true)
        let restarted = try moved(a, to: a.mirror, in: scratch)
        restarted.sync()

        #expect(status(restarted).hasPrefix("paused: ") && status(restarted).hasSuffix("(to start a new mirror, set `mirror` to an empty folder elsewhere)"))
        #expect(Sys.lstat(MirrorLayout(root: a.mirror).marker) == nil, "nothing written there")
    }

    /// A device that knows its mirror is here pauses at an empty folder even before its
    /// base has a row (here: a device whose container holds nothing and was never synced).
    @Test func aKnownMirrorIsExpectedBeforeTheBaseHasARow() throws {
        let scratch = Scratch()
        let a = try TestDevice("a", in: scratch.path, mirror: scratch.path + "/mirror")
        try FileManager.default.removeItem(atPath: a.root + "/" + TestDevice.containerID.folderName)  // no items: no base row
        a.sync()
        #expect(try a.engine.database.hasSyncedBefore() == false)
        try FileManager.default.removeItem(atPath: a.mirror)
        try FileManager.default.createDirectory(atPath: a.mirror, withIntermediateDirectories: true)
        let restarted = try moved(a, to: a.mirror, in: scratch)
        restarted.sync()

        #expect(status(restarted).hasPrefix("paused: "), "\(status(restarted))")
        #expect(Sys.lstat(MirrorLayout(root: a.mirror).marker) == nil)
    }

    /// `mirror` set to a folder that does not exist (a disk not mounted yet): nothing is
    /// made there, the path under it stays empty, and a's base is kept for when it comes.
    @Test func aNewMirrorPathThatIsMissingPausesAndMakesNothing() throws {
        let scratch = Scratch()
        let (a, _) = try scratch.pair()
        try a.write("doc.txt", "text")
        a.sync()
        let unmounted = scratch.path + "/media/usb/ubq"
        let moved = try moved(a, to: unmounted, in: scratch)
        moved.sync()

        #expect(status(moved).hasPrefix("paused: the mirror \(unmounted) is not there: mount the disk"), "\(status(moved))")
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/media"))
        #expect(try moved.engine.database.hasSyncedBefore(), "the base is kept")
    }

    /// The same mirror named through a link is the same path.
    @Test func aMirrorNamedThroughALinkIsNotElsewhere() throws {
        let scratch = Scratch()
        try FileManager.default.createDirectory(atPath: scratch.path + "/real", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/link", withDestinationPath: scratch.path + "/real")
        #expect(!MirrorIdentity(path: scratch.path + "/link", id: nil).isElsewhere(than: scratch.path + "/real/"))
        #expect(MirrorIdentity(path: scratch.path + "/link", id: nil).isElsewhere(than: scratch.path))
    }

    /// Another mirror mounted where a's was, holding other devices' files, one of them at a
    /// path a has with other content: both are kept, and each side gets what the other had.
    @Test func anotherMirrorWhereItWasIsJoinedLosingNothing() throws {
        let scratch = Scratch()
        let (a, _) = try scratch.pair()
        try a.write("doc.txt", "a's")
        try a.write("mine.txt", "only a's")
        a.sync()
        let other = scratch.path + "/other"
        let c = try TestDevice("c", in: scratch.path, mirror: other)
        try c.write("doc.txt", "c's")
        try c.write("theirs.txt", "only c's")
        c.sync()
        try FileManager.default.moveItem(atPath: a.mirror, toPath: scratch.path + "/away")
        try FileManager.default.moveItem(atPath: other, toPath: a.mirror)

        let joined = try moved(a, to: a.mirror, in: scratch)
        joined.sync()
        let cThere = try TestDevice("c", in: scratch.path, mirror: a.mirror)
        cThere.sync()
        joined.sync()

        #expect(status(joined).hasPrefix("idle: "))
        #expect(joined.read("theirs.txt") == "only c's" && cThere.read("mine.txt") == "only a's")
        let conflict = try #require(joined.engine.conflicts().first, "doc.txt differs: both kept")
        #expect(conflict.path == "Documents/doc.txt" && conflict.others.count == 1)
        #expect(Set([joined.read("doc.txt"), cThere.read("doc.txt")]).count == 1, "one current version everywhere")
    }

    /// A marker that cannot be read for a moment (a network mount's hiccup) does not make
    /// the device forget which mirror it knows: another one put there then is still told.
    @Test func aMarkerUnreadableForAMomentKeepsTheKnownId() throws {
        let scratch = Scratch()
        let (a, _) = try scratch.pair()
        try a.write("doc.txt", "text")
        a.sync()
        let marker = MirrorLayout(root: a.mirror).marker
        let id = try #require(MirrorIdentity.id(inMarker: marker))
        try Data("{".utf8).write(to: URL(fileURLWithPath: marker))
        a.sync()

        #expect(try a.engine.database.knownMirror() == MirrorIdentity(path: a.mirror, id: id))
        #expect(status(a).hasPrefix("idle: "))
    }

    /// Two devices setting up one empty folder at once: the second does not write over the
    /// first's marker, and takes its id.
    @Test func aMarkerIsNeverReplaced() throws {
        let scratch = Scratch()
        let marker = scratch.path + "/ubiquity-mirror.json"
        #expect(try DurableFile.create(marker, with: Array("first".utf8)))
        #expect(try !DurableFile.create(marker, with: Array("second".utf8)))
        #expect(FileManager.default.contents(atPath: marker) == Data("first".utf8))
        #expect((try FileManager.default.contentsOfDirectory(atPath: scratch.path)) == ["ubiquity-mirror.json"], "no staging file left")
    }

    /// A mirror made before mirrors had an id is used as before, and never taken for another.
    @Test func aMirrorWithoutAnIdIsTheSameMirror() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("doc.txt", "text")
        a.sync()
        b.sync()
        try Data(#"{"format": "ubiquity-mirror", "version": 1}"#.utf8).write(to: URL(fileURLWithPath: MirrorLayout(root: a.mirror).marker))
        try a.write("doc.txt", "edited")
        a.sync()
        b.sync()

        #expect(b.read("doc.txt") == "edited")
        #expect(a.engine.conflicts().isEmpty && b.engine.conflicts().isEmpty)
        #expect(MirrorIdentity(path: "/m", id: nil).isAnother(id: "x") == false)
        #expect(MirrorIdentity(path: "/mnt/nas/", id: nil).isElsewhere(than: "/mnt/nas") == false)
    }
}
