import Foundation
import Glibc
@testable import SyncEngine
import Testing

/// A folder that sync makes is a new entry in its parent, and that entry is durable only
/// once the parent is fsynced. Until then the base must not record anything that counts on
/// it: after a crash that lost the folder, the next pass would find its path gone and
/// publish a deletion.
@Suite("Folders sync makes are durable before the base counts on them")
struct NewFolderDurabilityTests {
    @Test func makingFoldersTellsWhichFoldersGainedAnEntry() throws {
        let scratch = Scratch()
        let root = scratch.path
        try FileManager.default.createDirectory(atPath: root + "/a", withIntermediateDirectories: true)

        #expect(try Sys.makeFolders("a/b/c", beneath: root) == [root + "/a", root + "/a/b"])
        #expect(try Sys.makeFolders("a/b/c", beneath: root) == [], "nothing made, nothing to sync")
        #expect(try Sys.makeFolders("a//b/./d", beneath: root) == [root + "/a/b/."], "empty and . components count as the kernel reads them")
        #expect(try Sys.makeParentFolders(of: "top/file.txt", beneath: root) == [root])
        #expect(try Sys.makeParentFolders(of: "file.txt", beneath: root) == [])
    }

    /// A folder another device made arrives here; its parent cannot be synced (a failing
    /// disk): the pass says so and records no base for it, and the next pass, on a
    /// working disk, does.
    @Test func aDownloadedFolderCountsOnlyOnceItsParentIsSynced() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try FileManager.default.createDirectory(atPath: a.documents + "/made/below", withIntermediateDirectories: true)
        a.sync()
        let faults = FaultInjection()
        faults.fail("fsync folder", with: EIO)
        b.engine.faults = faults

        let failed = b.sync()
        #expect(failed.problems.contains { $0.contains("fsync") }, "\(failed.problems)")
        #expect(try Self.base(of: b)["Documents/made"] == nil)

        b.engine.faults = nil
        let report = b.sync()
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(try Self.base(of: b)["Documents/made/below"]?.entry.state?.kind == .folder)
        #expect(b.tree() == a.tree())
    }

    private static func base(of device: TestDevice) throws -> [String: BaseRow] {
        try SyncDatabase(path: device.state + "/sync.sqlite").base(container: TestDevice.containerID.identifier)
    }
}
