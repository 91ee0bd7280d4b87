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
}
