import Foundation
@testable import SyncEngine
import SyncPlanning
import Testing

/// `ubq resolve` and `ubq restore` write over the local file. An edit made there and not
/// synced yet exists nowhere else: they must refuse rather than replace it, and a copy
/// put beside a file never lands on another file.
@Suite struct ResolveSafetyTests {
    static let path = "Documents/doc.txt"

    @Test func resolvingNeverReplacesAnEditNotSyncedYet() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.conflictedPair()
        let loser = try #require(a.engine.conflicts().first?.others.first)
        try b.write("doc.txt", "edited on b, not synced yet")
        #expect {
            try b.engine.resolve(container: TestDevice.containerID, path: Self.path, keep: .version(try #require(VersionID(loser.id))))
        } throws: { error in
            (error as? SyncError)?.code == .changedMeanwhile && "\(error)".contains("ubq sync")
        }
        #expect(b.read("doc.txt") == "edited on b, not synced yet")
        b.sync()
        a.sync()
        #expect(a.read("doc.txt") == "edited on b, not synced yet", "the edit syncs as usual afterwards")
    }

    @Test func restoringNeverReplacesAnEditNotSyncedYet() throws {
        let scratch = Scratch()
        let (a, first) = try Self.deviceWithTwoVersions(scratch)
        try a.write("doc.txt", "third, not synced yet")
        #expect(throws: SyncError.self) {
            try a.engine.restore(container: TestDevice.containerID, path: Self.path, version: first)
        }
        #expect(a.read("doc.txt") == "third, not synced yet")
    }

    @Test func restoringOverASyncedFileStillWorks() throws {
        let scratch = Scratch()
        let (a, first) = try Self.deviceWithTwoVersions(scratch)
        a.sync()  // a full pass: the base's signature is the file's again
        try a.engine.restore(container: TestDevice.containerID, path: Self.path, version: first)
        #expect(a.read("doc.txt") == "first")
    }

    @Test func aSecondCopyBesideTheFileGetsANumberInsteadOfReplacingTheFirst() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.conflictedPair()
        try a.engine.resolve(container: TestDevice.containerID, path: Self.path, keep: .all)
        a.sync()
        b.sync()
        let firstCopy = try #require(a.tree().first { $0.key.contains("(conflict from ") })
        // The same two devices clash again the same day: the loser's copy has the same name.
        try a.write("doc.txt", "again from a")
        try b.write("doc.txt", "again from b")
        a.sync()
        b.sync()
        a.sync()
        try a.engine.resolve(container: TestDevice.containerID, path: Self.path, keep: .all)
        let copies = a.tree().filter { $0.key.contains("(conflict from ") }
        #expect(copies.count == 2, "\(copies.keys.sorted())")
        #expect(copies.keys.contains { $0.hasSuffix(" 2).txt") }, "\(copies.keys.sorted())")
        #expect(copies[firstCopy.key] == firstCopy.value, "the first copy is left as it was")
    }

    /// An item in no conflict is left as it is by `--keep current` and `--keep all`: no
    /// version is added, and the file keeps its inode (an app may have it open). Before,
    /// each such resolve published the same content again and replaced the file.
    /// `--remove-others` still removes its other versions (NSFileVersion's
    /// `removeOtherVersionsOfItem`, which needs no conflict).
    @Test(arguments: [ResolutionChoice.current, .all])
    func anItemInNoConflictIsLeftAsItIs(_ choice: ResolutionChoice) throws {
        let scratch = Scratch()
        let (a, _) = try Self.deviceWithTwoVersions(scratch)
        let inode = try FolderMoveSyncTests.inode(a, "doc.txt")
        let resolved = try a.engine.resolve(container: TestDevice.containerID, path: Self.path, keep: choice)
        #expect(!resolved)
        #expect(try a.engine.versions(container: TestDevice.containerID, path: Self.path).count == 2)
        #expect(try FolderMoveSyncTests.inode(a, "doc.txt") == inode)
        #expect(try a.engine.resolve(container: TestDevice.containerID, path: Self.path, keep: .current, removingOtherVersions: true))
        #expect(try a.engine.versions(container: TestDevice.containerID, path: Self.path).count == 1, "the other version removed")
    }

    /// A device whose doc.txt was synced as "first", then as "second"; the first version's id.
    static func deviceWithTwoVersions(_ scratch: Scratch) throws -> (TestDevice, VersionID) {
        let a = try scratch.devices("a")[0]
        try a.write("doc.txt", "first")
        a.sync()
        try a.write("doc.txt", "second")
        a.sync()
        let first = try #require(try a.engine.versions(container: TestDevice.containerID, path: path).last)
        return (a, try #require(VersionID(first.id)))
    }
}
