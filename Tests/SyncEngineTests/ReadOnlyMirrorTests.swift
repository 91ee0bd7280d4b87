import Foundation
import Glibc
import RawPaths
import TestSupport
import Testing

@testable import SyncEngine

/// A mirror mounted read-only (by mistake, or a share this user may only read): what
/// cannot be uploaded is said, file by file, and downloads go on. The copy a scan makes of
/// a small file as it hashes it failed there, and failed the file's hashing: the problem
/// named only the mirror's staging folder.
@Suite(.serialized, .enabled(if: SmallDisk.canMount, "needs root to mount"))
struct ReadOnlyMirrorTests {
    @Test func whatCannotBeUploadedIsNamedAndDownloadsGoOn() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        b.sync()  // registered (a device's first pass writes its name in the mirror)
        try a.write("one.txt", "one")
        a.sync()
        try SmallDisk.makeReadOnly(a.mirror)
        defer { SmallDisk.unmount(a.mirror) }
        try a.write("two.txt", "two")
        a.engine.racyWindowNanoseconds = 0  // its signature vouches: the scan copies it as it hashes it
        let report = a.sync()

        #expect(report.failed == 1 && a.engine.status().first?.notSynced == 1, "\(report.problems)")
        // The file was read; the mirror refused its upload (not "not synced this time",
        // which says the file could not be read).
        #expect(report.problems.contains { $0.hasPrefix("Documents/two.txt: open ") && $0.hasSuffix("Read-only file system") }, "\(report.problems)")
        let error = report.indexState?.itemErrors[RawPath("Documents/two.txt")]
        #expect(error?.hasSuffix("Read-only file system") == true, "the item's uploading error: \(String(describing: error))")
        b.sync()
        #expect(b.read("one.txt") == "one")

        SmallDisk.unmount(a.mirror)
        a.sync()
        b.sync()
        #expect(b.read("two.txt") == "two")
        #expect(a.engine.status().first?.notSynced == nil)
    }

    /// A device renamed while its mirror is read-only stays registered under its old name:
    /// its record could not be replaced, and that is said once in the log, not as a
    /// problem of every container ("cannot register": it is registered).
    @Test func aDeviceRenamedOnAMirrorItMayOnlyReadKeepsItsOldNameThere() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        a.sync()
        try SmallDisk.makeReadOnly(a.mirror)
        defer { SmallDisk.unmount(a.mirror) }
        let record = MirrorLayout(root: a.mirror).deviceFile(a.engine.device.id)
        let before = try #require(DeviceRecord(path: record))
        a.deviceName = "laptop"
        try a.restart()
        a.sync()
        a.sync()

        #expect(a.status().problems.isEmpty, "\(a.status().problems)")
        #expect(DeviceRecord(path: record) == before)
        #expect(a.log.texts(at: .warning).count { $0.contains("cannot be replaced to name it \"laptop\"") } == 1, "\(a.log.texts(at: .warning))")
        _ = b
    }

    /// A device new to a mirror it may only read cannot write its name in `devices/`: it
    /// paused there, receiving nothing. It now receives, and says why it sends nothing.
    @Test func aNewDeviceReceivesFromAMirrorItMayOnlyRead() throws {
        let scratch = Scratch()
        let a = try scratch.devices("a")[0]
        try a.write("shared.txt", "from a")
        a.sync()
        try SmallDisk.makeReadOnly(a.mirror)
        defer { SmallDisk.unmount(a.mirror) }
        let c = try scratch.devices("c")[0]
        let first = c.sync()
        #expect(first.holdup == nil && c.status().phase == .idle, "\(c.status())")
        #expect(c.read("shared.txt") == "from a")
        #expect(c.status().problems.first?.hasPrefix("this device cannot register in the mirror (") == true, "\(c.status().problems)")
        try c.write("mine.txt", "from c")
        c.sync()
        #expect(c.status().notSynced == 1, "its own change is not sent, and counts: \(c.status())")

        #expect(!c.engine.mirrorHasNews())
        SmallDisk.unmount(a.mirror)
        #expect(c.engine.mirrorHasNews(), "the mirror may be written now: the daemon's poll starts a pass")
        c.sync(changed: [])  // the pass that poll starts, with no local change
        #expect(c.status().problems.isEmpty && c.status().notSynced == nil, "\(c.status())")
        a.sync()
        #expect(a.read("mine.txt") == "from c")
    }
}
