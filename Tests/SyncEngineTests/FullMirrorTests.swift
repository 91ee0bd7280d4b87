import Foundation
import SyncEngine
import TestSupport
import Testing

/// The mirror's disk fills up (here a small tmpfs, filled but for a few dozen pages) while
/// a device has changes to upload: the pass stops and says why, the device keeps every
/// file, the pass leaves no unfinished upload taking space, and the next pass once there
/// is room uploads them all.
@Suite(.serialized, .enabled(if: SmallDisk.canMount, "needs root to mount a small tmpfs"))
struct FullMirrorTests {
    static let files = 300

    @Test func aFullMirrorPausesTheSyncAndTheNextPassFinishesIt() throws {
        let scratch = Scratch()
        let mirror = scratch.path + "/mirror"
        try SmallDisk.mount(at: mirror, size: "4m")
        defer { SmallDisk.unmount(mirror) }
        let (a, b) = try scratch.pair()
        try a.write("first.txt", "first\n")
        #expect(a.sync().problems.isEmpty)

        // Room for a few dozen of the files: each takes a page of the tmpfs at least.
        SmallDisk.fill(mirror, leaving: 40 * 4096)
        for n in 0..<Self.files { try a.write("later/f\(n).txt", "file \(n)\n") }
        let written = a.tree()
        let paused = a.sync()
        #expect(paused.incomplete)
        #expect(paused.problems.contains { $0.contains("paused until there is space") }, "\(paused.problems)")
        #expect(a.tree() == written, "the device keeps every file")
        let incoming = (try? FileManager.default.contentsOfDirectory(atPath: MirrorLayout(root: mirror).incoming)) ?? []
        #expect(incoming.isEmpty, "the pass took back the space of its unfinished uploads: \(incoming.count) left")

        SmallDisk.empty(mirror)
        let resumed = a.sync()
        #expect(resumed.problems.isEmpty, "\(resumed.problems)")
        #expect(b.sync().problems.isEmpty)
        #expect(b.tree() == written)
    }

    /// A file larger than the mirror's room is not copied at all (neither early, as it is
    /// hashed, nor for its upload): each retry would fill the disk and empty it again.
    @Test func aFileThatCannotFitIsNotCopied() throws {
        let scratch = Scratch()
        let mirror = scratch.path + "/mirror"
        try SmallDisk.mount(at: mirror, size: "4m")
        defer { SmallDisk.unmount(mirror) }
        let (a, b) = try scratch.pair()
        try a.write("first.txt", "first\n")
        a.sync()
        SmallDisk.fill(mirror, leaving: 1 << 20)
        try Data(repeating: 7, count: 2 << 20).write(to: URL(fileURLWithPath: a.documents + "/large.bin"))

        let paused = a.sync()
        #expect(paused.pausedForSpace)
        #expect(paused.problems.contains { $0.hasPrefix("Documents/large.bin: no room for 2097152 bytes") }, "\(paused.problems)")
        SmallDisk.empty(mirror)
        #expect(a.sync().problems.isEmpty)
        b.sync()
        #expect(b.tree()["large.bin"]?.utf8.count == 2 << 20)
    }

    /// A file deleted elsewhere whose content the store lost, on a mirror with no room to
    /// store it again: the pass pauses for space and the file stays (`keepingReplacedContent`).
    @Test func contentThatCannotBeStoredForWantOfRoomKeepsItsFileAndPauses() throws {
        let scratch = Scratch()
        let mirror = scratch.path + "/mirror"
        try SmallDisk.mount(at: mirror, size: "4m")
        defer { SmallDisk.unmount(mirror) }
        let (a, b) = try scratch.pair()
        try Data(repeating: 7, count: 256 << 10).write(to: URL(fileURLWithPath: a.documents + "/only.bin"))
        a.sync()
        b.sync()
        let object = try #require(try b.versions("only.bin").first?.contentPath)
        unlink(object)
        unlink(a.documents + "/only.bin")
        a.sync()
        SmallDisk.fill(mirror, leaving: 16 << 10)
        let paused = b.sync()

        #expect(paused.pausedForSpace, "\(paused.problems)")
        #expect(b.tree()["only.bin"]?.utf8.count == 256 << 10, "the file stays")
        SmallDisk.empty(mirror)
        b.sync()
        #expect(b.tree()["only.bin"] == nil)
        #expect(FileManager.default.fileExists(atPath: object), "stored again before it went")
    }
}
