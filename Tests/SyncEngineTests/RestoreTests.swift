import APIModel
import Crypto
import Foundation
import Glibc
import Testing

@testable import SyncEngine

/// `ubq restore` (NSFileVersion's `replaceItem`): the chosen version is current on every
/// device once the call returns, whatever this device's pass would make of the file.
@Suite struct RestoreTests {
    /// Written a moment ago, the restored file was left by the restore's own pass for the
    /// quiet period: `ubq versions` still called the newer version current, and another
    /// device syncing then did not get it.
    @Test func aRestoredVersionIsPublishedBeforeTheCallReturns() throws {
        let scratch = Scratch()
        let a = try TestDevice("a", in: scratch.path, mirror: scratch.path + "/mirror", quietMilliseconds: 60_000)
        let b = try TestDevice("b", in: scratch.path, mirror: scratch.path + "/mirror")
        try a.write("doc.txt", "first")
        a.sync(settled: true)
        try a.write("doc.txt", "second")
        a.sync(settled: true)
        let first = try #require(try a.versions("doc.txt").last)
        try a.restore("doc.txt", to: first)

        let current = try #require(try a.versions("doc.txt").first { $0.current })
        #expect(current.sha256 == first.sha256 && current.id != first.id, "a new version with the old content")
        b.sync()
        #expect(b.read("doc.txt") == "first")
        #expect(a.sync(settled: true).published == 0, "nothing left to publish")
        #expect(a.engine.conflicts().isEmpty && b.engine.conflicts().isEmpty)
    }

    /// b has not downloaded a's latest edit when it restores the first version: the choice
    /// was made from the whole history, so it replaces the latest edit too. Before, b's
    /// pass took the restored file for an old download and put the latest edit back.
    @Test func aRestoreOnADeviceThatIsBehindReplacesTheCurrentVersion() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.saveVersions("doc.txt", "first")
        b.sync()
        try a.saveVersions("doc.txt", "second")
        b.sync()
        try a.saveVersions("doc.txt", "third")
        let second = try #require(try b.versions("doc.txt").first { $0.sha256 == sha256("second") })
        try b.restore("doc.txt", to: second)
        b.sync()
        a.sync()

        #expect(b.read("doc.txt") == "second" && a.read("doc.txt") == "second")
        #expect(a.engine.conflicts().isEmpty, "third is an older version now, not a conflict")
        #expect(try a.versions("doc.txt").contains { $0.sha256 == sha256("third") && !$0.current })
    }

    /// A link's versions are versions too: restoring one did nothing, and said it was done.
    @Test func aLinksOldTargetIsRestored() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        let link = a.documents + "/latest"
        #expect(symlink("report-1.pdf", link) == 0)
        a.sync()
        unlink(link)
        #expect(symlink("report-2.pdf", link) == 0)
        a.sync()
        b.sync()
        let old = try #require(try a.versions("latest").last)
        try a.restore("latest", to: old)
        b.sync()

        #expect(a.tree()["latest"] == "-> report-1.pdf")
        #expect(b.tree()["latest"] == "-> report-1.pdf")
    }

    /// Restoring what is current already makes no version.
    @Test func restoringTheCurrentContentChangesNothing() throws {
        let scratch = Scratch()
        let (a, _) = try scratch.pair()
        try a.saveVersions("doc.txt", "same", "other", "same")
        let count = try a.versions("doc.txt").count
        let old = try #require(try a.versions("doc.txt").last)
        try a.restore("doc.txt", to: old)
        #expect(try a.versions("doc.txt").count == count)
    }

    @Test func theVersionOfAFolderThatIsThereIsRefusedSayingWhereItsFilesAre() throws {
        let scratch = Scratch()
        let (a, _) = try scratch.pair()
        try a.write("notes/one.txt", "one")
        a.sync()
        let folder = try #require(try a.versions("notes").first)
        #expect {
            try a.restore("notes", to: folder)
        } throws: { error in
            "\(error)".contains("notes is a folder, and not a deleted one: the files in it have versions of their own")
        }
    }

    /// With the mirror not mounted, a restore says so, and writes nothing.
    @Test func aRestoreWithTheMirrorAwaySaysSo() throws {
        let scratch = Scratch()
        let (a, _) = try scratch.pair()
        try a.saveVersions("doc.txt", "first", "second")
        let first = try #require(try a.versions("doc.txt").last)
        try FileManager.default.moveItem(atPath: a.mirror, toPath: scratch.path + "/away")
        try FileManager.default.createDirectory(atPath: a.mirror, withIntermediateDirectories: true)

        #expect {
            try a.restore("doc.txt", to: first)
        } throws: { error in
            (error as? SyncError)?.code == .mirrorUnavailable && "\(error)".contains("(is it mounted?)")
        }
        #expect(a.read("doc.txt") == "second")
    }

    private func sha256(_ text: String) -> String {
        ContentHashing.hex(SHA256.hash(data: Data(text.utf8)))
    }
}
