import Foundation
import Glibc
import IgnoreRules
import RawPaths
import SyncPlanning
import Testing
@testable import SyncEngine

/// The base keeps each file's signature so that an unchanged file is not read again. It
/// must keep one only when the signature vouches for the content (a file changed a moment
/// before it was read may change again under the same signature: git's "racily clean"
/// entries), and it must take a new one when a file's signature changed but not its
/// content (`touch`), or that file is read again by every pass.
@Suite struct SignatureTrustTests {
    @Test func aTouchedFileIsReadOnceAndThenTrustedAgain() throws {
        let scratch = Scratch()
        let device = try scratch.devices("a")[0]
        device.engine.racyWindowNanoseconds = 0
        try device.write("doc.txt", "text")
        #expect(device.sync().hashed == 1, "the new file is read")
        try Self.touch(device.documents + "/doc.txt")
        let afterTouch = device.sync()
        #expect(afterTouch.hashed == 1 && afterTouch.published == 0, "a new signature: read, found unchanged")
        #expect(device.sync().hashed == 0, "the new signature was kept, so the file is not read again")
    }

    @Test func aFileReadWithinTheWindowOfItsChangeIsReadAgainUntilItIsOlder() throws {
        let scratch = Scratch()
        let device = try scratch.devices("a")[0]
        device.engine.racyWindowNanoseconds = 3_600_000_000_000  // every change is "a moment ago"
        try device.write("doc.txt", "text")
        #expect(device.sync().hashed == 1, "the new file is read")
        let again = device.sync()
        #expect(again.hashed == 1 && again.published == 0, "no signature kept: read again, found unchanged")
        device.engine.racyWindowNanoseconds = 0  // the change is old enough now
        #expect(device.sync().hashed == 1)
        #expect(device.sync().hashed == 0, "read once more, then trusted")
    }

    @Test func aScanKeepsOnlySignaturesOlderThanTheWindow() throws {
        let scratch = Scratch()
        let folder = scratch.path + "/tree"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/f"))
        let rules = IgnoreRules.none
        let fresh = LocalTree.scan(containerFolder: RawPath(folder), ignore: rules, base: [:], racyWindow: 3_600_000_000_000)
        let old = LocalTree.scan(containerFolder: RawPath(folder), ignore: rules, base: [:], racyWindow: 0)
        #expect(fresh.entries["f"]?.lastingSignature == nil)
        #expect(old.entries["f"]?.lastingSignature == old.entries["f"]?.signature)
        #expect(fresh.hashed == 1 && old.hashed == 1)
    }

    /// A download renamed into place keeps its signature only if it was written a window
    /// before the rename: a save just after the rename changes its modification time then.
    @Test func aPlacedFileVouchesOnlyIfWrittenAWindowBeforeItsRename() throws {
        let scratch = Scratch()
        let path = scratch.path + "/placed"
        try Data("x".utf8).write(to: URL(fileURLWithPath: path))
        let placed = try #require(Sys.lstat(path))
        let written = LocalSignature(stat: placed).modifiedNanoseconds
        let window = LocalSignature.racyWindowNanoseconds
        #expect(Executor.signature(of: path, asPlaced: placed, renamedAt: written + window) != nil)
        #expect(Executor.signature(of: path, asPlaced: placed, renamedAt: written + window - 1) == nil)
    }

    @Test func onlyRowsWhoseStateTheScanFoundGetTheNewSignature() {
        let version = VersionID(device: "d", sequence: 1)
        let state = EntryState.file(sha256: String(repeating: "a", count: 64), size: 1)
        let old = LocalSignature(inode: 1, size: 1, modifiedNanoseconds: 1, changedNanoseconds: 1)
        let new = LocalSignature(inode: 1, size: 1, modifiedNanoseconds: 2, changedNanoseconds: 2)
        let other = EntryState.file(sha256: String(repeating: "b", count: 64), size: 1)
        var local = LocalTree()
        local.entries["same"] = LocalEntry(rawPath: RawPath("same"), state: state, signature: new, lastingSignature: new)
        local.entries["racy"] = LocalEntry(rawPath: RawPath("racy"), state: state, signature: new, lastingSignature: nil)
        local.entries["edited"] = LocalEntry(rawPath: RawPath("edited"), state: other, signature: new, lastingSignature: new)
        local.entries["kept"] = LocalEntry(rawPath: RawPath("kept"), state: state, signature: old, lastingSignature: old)
        let base = Dictionary(uniqueKeysWithValues: ["same", "racy", "edited", "kept"].map {
            ($0, BaseRow(path: $0, entry: BaseEntry(version: version, state: state), signature: old))
        })
        let refreshed = SyncPass.refreshedSignatures(local: local, base: base)
        #expect(refreshed.map(\.path) == ["same"])
        #expect(refreshed.first?.signature == new)
    }

    /// Sets the file's modification time to a second earlier: a new signature, the same content.
    static func touch(_ path: String) throws {
        let info = try #require(Sys.lstat(path))
        var times = [timespec(tv_sec: info.st_mtim.tv_sec - 1, tv_nsec: 0), timespec(tv_sec: info.st_mtim.tv_sec - 1, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    }
}
