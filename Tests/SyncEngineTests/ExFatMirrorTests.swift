import Foundation
import Glibc
import TestSupport
import Testing

@testable import SyncEngine

/// A mirror on a USB disk formatted exFAT, mounted through exfat-fuse (as where the
/// kernel has no exFAT driver): no hard links, no symlinks, no RENAME_NOREPLACE, no
/// permissions. The mirror's marker was made with a rename that must not replace, which
/// fell back to link(2), which exFAT refuses (EPERM): no device could ever set such a
/// mirror up, and sync stayed paused.
@Suite(.serialized, .enabled(if: ExFatDisk.canMount, "needs root, /dev/fuse, a loop device and exfat-fuse"))
struct ExFatMirrorTests {
    @Test func twoDevicesSyncThroughAnExFatDisk() throws {
        let scratch = Scratch()
        let disk = try ExFatDisk(at: scratch.path + "/mirror")
        defer { disk.unmount() }
        let (a, b) = try scratch.pair()
        try a.write("notes.txt", "from a")
        try a.write("folder/inside.txt", "inside")
        #expect(symlink("notes.txt", a.documents + "/link") == 0)
        #expect(chmod(a.documents + "/notes.txt", 0o755) == 0)

        let first = a.sync()
        #expect(first.published >= 4 && !first.incomplete && first.holdup == nil, "\(first.problems)")
        #expect(first.problems.contains { $0.contains("views are off") }, "exFAT has no hard links: \(first.problems)")
        b.sync()
        #expect(b.tree() == a.tree())
        #expect(Self.mode(b.documents + "/notes.txt") == 0o755, "mode bits travel in the log, not on the disk")

        try FileManager.default.moveItem(atPath: a.documents + "/folder", toPath: a.documents + "/Folder")  // the case only
        try a.write("notes.txt", "edited on a")
        try b.write("notes.txt", "edited on b")
        a.sync()
        b.sync()
        a.sync()
        #expect(a.tree() == b.tree())
        #expect(a.tree()["Folder/inside.txt"] == "inside" && a.tree()["folder"] == nil)
        #expect(a.engine.conflicts().count == 1 && b.engine.conflicts().count == 1, "one edit wins, the other is kept as a conflict version")
    }

    /// The marker is made in place (O_EXCL) where it cannot be renamed into place, and a
    /// second create (another device setting up the same folder) finds it and writes nothing.
    @Test func theMarkerIsMadeOnceAndNeverReplaced() throws {
        let scratch = Scratch()
        let disk = try ExFatDisk(at: scratch.path + "/disk")
        defer { disk.unmount() }
        let marker = disk.mountPoint + "/marker.json"
        #expect(try DurableFile.create(marker, with: Array("first".utf8)))
        #expect(try !DurableFile.create(marker, with: Array("second".utf8)))
        #expect(FileManager.default.contents(atPath: marker) == Data("first".utf8))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: disk.mountPoint).filter { $0 != "marker.json" }
        #expect(leftovers.isEmpty, "no staging file left behind: \(leftovers)")
    }

    /// A mount whose program died answers every call with ENOTCONN. Said as "not there",
    /// with the advice to set `mirror` to a new folder, it sent the user the wrong way.
    @Test func aMountWhoseProgramDiedIsSaidSoAndPauses() throws {
        let scratch = Scratch()
        let disk = try ExFatDisk(at: scratch.path + "/mirror")
        defer { disk.unmount() }
        let (a, b) = try scratch.pair()
        try a.write("notes.txt", "from a")
        a.sync()
        b.sync()
        #expect(disk.killProgram(), "the mount answers ENOTCONN")
        try a.write("notes.txt", "edited meanwhile")
        let paused = a.sync()
        let reason = paused.holdup?.reason ?? a.status().message ?? ""
        #expect(a.status().phase == .paused, "\(a.status())")
        #expect(reason.contains("cannot be reached (Transport endpoint is not connected"), "\(reason)")
        #expect(a.read("notes.txt") == "edited meanwhile" && b.read("notes.txt") == "from a")
    }

    private static func mode(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }
}
