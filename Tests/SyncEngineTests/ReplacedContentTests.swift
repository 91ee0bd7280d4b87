import Foundation
import Glibc
import RawPaths
import Testing

@testable import SyncEngine

/// A device deleting or replacing a synced file for another device's change removes
/// content: it must be in the store first, or the history would name content nobody has.
@Suite struct ReplacedContentTests {
    @Test func aFileDeletedElsewhereWhoseObjectIsMissingIsStoredBeforeItGoes() throws {
        let scratch = Scratch()
        try expectStoredBeforeItGoes(scratch) { object in unlink(object) }  // a person tidying the mirror, a replicator
    }

    /// An object cut short (a copy of the mirror that ran out of room) is no copy either.
    @Test func aFileWhoseObjectWasCutShortIsStoredWholeBeforeItGoes() throws {
        let scratch = Scratch()
        try expectStoredBeforeItGoes(scratch) { object in
            chmod(object, 0o644)
            #expect(truncate(object, 4) == 0)
        }
    }

    /// a and b hold `only.txt`; the store loses its object (`damage`), then a deletes it:
    /// b's file goes, and its content is in the store again.
    private func expectStoredBeforeItGoes(_ scratch: Scratch, damage: (String) -> Void) throws {
        let (a, b) = try scratch.pair()
        try a.write("only.txt", "the only copy")
        a.sync()
        b.sync()
        let object = try #require(try b.versions("only.txt").first?.contentPath)
        damage(object)
        unlink(a.documents + "/only.txt")
        a.sync()
        b.sync()

        #expect(b.read("only.txt") == nil)
        #expect(FileManager.default.contents(atPath: object).map { String(decoding: $0, as: UTF8.self) } == "the only copy")
    }

    /// An edit made elsewhere replaces the file: the version it replaces stays restorable.
    @Test func aFileEditedElsewhereWhoseObjectIsMissingIsStoredBeforeItIsReplaced() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.saveVersions("doc.txt", "first")
        b.sync()
        let first = try #require(try b.versions("doc.txt").first)
        unlink(try #require(first.contentPath))
        try a.saveVersions("doc.txt", "second")
        b.sync()
        #expect(b.read("doc.txt") == "second")

        try b.restore("doc.txt", to: first)
        #expect(b.read("doc.txt") == "first")
    }

    /// Content that cannot be stored again (here its object folder is a file) keeps its
    /// file: the deletion waits, and the status says why.
    @Test func aFileWhoseContentCannotBeStoredStays() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("only.txt", "the only copy")
        a.sync()
        b.sync()
        let object = try #require(try b.versions("only.txt").first?.contentPath)
        let folder = (object as NSString).deletingLastPathComponent
        try FileManager.default.removeItem(atPath: folder)
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: folder))
        unlink(a.documents + "/only.txt")
        a.sync()
        let report = b.sync()

        #expect(b.read("only.txt") == "the only copy")
        #expect(report.problems.contains { $0.contains("only.txt: left as it is for now: its content is missing from the mirror's store") }, "\(report.problems)")
        #expect(b.engine.status().first?.notSynced == 1)
        let error = report.indexState?.downloadErrors[RawPath("Documents/only.txt")]
        #expect(error?.hasPrefix("left as it is for now") == true, "the item's downloading error: \(String(describing: error))")
        #expect(report.indexState?.outdated?.contains(RawPath("Documents/only.txt")) == true, "a newer version (its deletion) waits")
    }

    /// `ubq restore` replaces the file too.
    @Test func aRestoreStoresTheContentItReplacesIfTheStoreLostIt() throws {
        let scratch = Scratch()
        let (a, _) = try scratch.pair()
        try a.saveVersions("doc.txt", "first", "second")
        let versions = try a.versions("doc.txt")
        let (second, first) = (try #require(versions.first), try #require(versions.last))
        let object = try #require(second.contentPath)
        unlink(object)
        try a.restore("doc.txt", to: first)

        #expect(a.read("doc.txt") == "first")
        #expect(FileManager.default.contents(atPath: object).map { String(decoding: $0, as: UTF8.self) } == "second")
    }

    /// A file with changes not synced yet is refused as always, saying so, though the
    /// store lost what was last synced there: nothing is stored from it, nothing replaced.
    @Test func aRestoreOverUnsyncedChangesIsRefusedSayingSo() throws {
        let scratch = Scratch()
        let (a, _) = try scratch.pair()
        try a.saveVersions("doc.txt", "first", "second")
        let versions = try a.versions("doc.txt")
        unlink(try #require(versions.first?.contentPath))
        try a.write("doc.txt", "third, not synced")
        let first = try #require(versions.last)

        #expect {
            try a.restore("doc.txt", to: first)
        } throws: { error in
            "\(error)".contains("has changes that are not synced yet; nothing was changed")
        }
        #expect(a.read("doc.txt") == "third, not synced")
    }
}
