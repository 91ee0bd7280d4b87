import Foundation
import Glibc
import SyncPlanning
@testable import SyncEngine
import Testing

/// A synced file keeps its modification time on every device (`EntryState.modified`, the
/// log's `mtime`), as `rsync -a` and iCloud Drive keep it: a query for what changed last
/// week must not find every file another device sent today. A touch alone is no change.
@Suite struct ModificationTimeTests {
    /// 2019-05-05 05:05:05.123456789 UTC, and a time before 1970 (negative nanoseconds).
    static let old: Int64 = 1_557_032_705_123_456_789
    static let beforeEpoch: Int64 = -152_492_276_500_000_001

    static func setModified(_ path: String, _ nanoseconds: Int64) {
        let fd = open(path, O_WRONLY)
        defer { close(fd) }
        ContentStore.setModified(fd, to: nanoseconds)
    }

    static func modified(_ path: String) -> Int64? {
        Sys.lstat(path).map { LocalSignature(stat: $0).modifiedNanoseconds }
    }

    @Test func newFilesKeepTheirTimesToTheNanosecond() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("old.txt", "old")
        try a.write("folder/ancient.txt", "ancient")
        Self.setModified(a.documents + "/old.txt", Self.old)
        Self.setModified(a.documents + "/folder/ancient.txt", Self.beforeEpoch)
        #expect(Self.modified(a.documents + "/folder/ancient.txt") == Self.beforeEpoch)
        a.sync()
        b.sync()

        #expect(b.read("old.txt") == "old")
        #expect(Self.modified(b.documents + "/old.txt") == Self.old)
        #expect(Self.modified(b.documents + "/folder/ancient.txt") == Self.beforeEpoch)
        #expect(b.sync().published == 0, "b publishes nothing back")
        let versions = try b.engine.versions(container: TestDevice.containerID, path: "Documents/old.txt")
        #expect(versions.map(\.modified) == ["2019-05-05T05:05:05.123456Z"], "NSFileVersion's modificationDate")
    }

    /// One file alone takes another way in than a run of them (`Executor.writeAlone`).
    @Test func anEditArrivesWithItsTime() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("doc.txt", "first")
        a.sync()
        b.sync()
        try b.write("doc.txt", "second")
        Self.setModified(b.documents + "/doc.txt", Self.old)
        b.sync()
        a.sync()

        #expect(a.read("doc.txt") == "second")
        #expect(Self.modified(a.documents + "/doc.txt") == Self.old)
    }

    @Test func aTouchAloneIsNotAChange() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("doc.txt", "text")
        a.sync()
        b.sync()
        Self.setModified(a.documents + "/doc.txt", Self.old)

        #expect(a.sync().published == 0)
        #expect(b.sync().applied == 0)
    }

    @Test func aRestoredVersionAndAConflictCopyHaveTheirVersionsTimes() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("doc.txt", "first")
        Self.setModified(a.documents + "/doc.txt", Self.old)
        a.sync()
        try a.write("doc.txt", "second")
        a.sync()
        let first = try #require(try a.engine.versions(container: TestDevice.containerID, path: "Documents/doc.txt").last)
        try a.engine.restore(container: TestDevice.containerID, path: "Documents/doc.txt", version: try #require(VersionID(first.id)))
        #expect(a.read("doc.txt") == "first")
        #expect(Self.modified(a.documents + "/doc.txt") == Self.old)

        a.sync()
        b.sync()
        try b.write("doc.txt", "from b")
        Self.setModified(b.documents + "/doc.txt", Self.beforeEpoch)
        try a.write("doc.txt", "from a")
        Self.setModified(a.documents + "/doc.txt", Self.old + 1)
        b.sync()
        a.sync()
        try a.engine.resolve(container: TestDevice.containerID, path: "Documents/doc.txt", keep: .all)
        let times = ["from a": Self.old + 1, "from b": Self.beforeEpoch]
        let copy = try #require(a.tree().first { $0.key.hasPrefix("doc (conflict from ") }, "\(a.tree())")
        #expect(Self.modified(a.documents + "/" + copy.key) == times[copy.value])
        #expect(Self.modified(a.documents + "/doc.txt") == times[a.read("doc.txt") ?? ""], "the winner keeps its own")
    }
}
