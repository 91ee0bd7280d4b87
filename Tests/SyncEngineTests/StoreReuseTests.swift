import Foundation
import SyncPlanning
import Testing

@testable import SyncEngine

/// `ContentStore.reuses`: whether the store has an object already. An upload of content
/// the store has writes nothing, and the object it names is touched so that the store's
/// collector spares it (`RetentionSyncTests` covers the collection itself; an upload that
/// wrote the object again would pass that test as well).
@Suite struct StoreReuseTests {
    let scratch = Scratch()
    var layout: MirrorLayout { MirrorLayout(root: scratch.path + "/mirror") }

    /// Stores `bytes` and returns the object's path.
    func put(_ bytes: String, in store: ContentStore) throws -> String {
        store.layout.object(try store.store(bytes: Array(bytes.utf8)).sha256)
    }

    static func modified(_ path: String) throws -> Date {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
    }

    static func inode(_ path: String) throws -> UInt64 {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? UInt64)
    }

    @Test func onlyAnObjectOfTheContentsSizeIsReused() throws {
        let store = ContentStore(layout: layout, device: "d1")
        let absent = String(repeating: "ab", count: 32)
        #expect(!store.reuses(absent, size: 3), "an empty mirror has no store folder yet")
        let object = try put("one", in: store)
        let sha256 = URL(fileURLWithPath: object).lastPathComponent
        #expect(store.reuses(sha256, size: 3))
        #expect(!store.reuses(sha256, size: 4), "an object of another size is not the content")
        #expect(!store.reuses(absent, size: 3))
    }

    @Test func storingContentTheStoreHasTouchesItsObjectAndWritesNothing() throws {
        let store = ContentStore(layout: layout, device: "d1")
        let object = try put("two", in: store)
        let inode = try Self.inode(object)
        let old = Date(timeIntervalSince1970: 1_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: object)
        #expect(try put("two", in: store) == object)
        #expect(try Self.inode(object) == inode, "the object was not written again")
        #expect(try Self.modified(object) > old.addingTimeInterval(3600), "touched, so the collector spares it")
    }
}

/// `ContentStore.bytes(of:)` reads a diary's content whole to merge it: never more than the
/// version's size says and one byte (which no test here sees), and never a content of another
/// size. Which of the line and the object is wrong, the object's hash tells.
@Suite struct WholeReadTests {
    let scratch = Scratch()
    var layout: MirrorLayout { MirrorLayout(root: scratch.path + "/mirror") }

    func version(_ sha256: String, size: Int64) throws -> VersionRecord {
        VersionRecord(id: try #require(VersionID("0123456789abcdef:1")), path: "Documents/a.diary", parents: [], state: .file(sha256: sha256, size: size), time: 1)
    }

    @Test func aLineThatUnderstatesItsObjectsSizeIsRefusedAndTheObjectKept() throws {
        let store = ContentStore(layout: layout, device: "d1")
        let stored = try store.store(bytes: Array(repeating: 7, count: 1 << 20))

        let refused = #expect(throws: SyncError.self) { try store.bytes(of: version(stored.sha256, size: 10)) }
        #expect(refused?.message.contains("says 10 bytes") == true && refused?.message.contains("holds 1048576") == true, "\(String(describing: refused))")
        #expect(try store.bytes(of: version(stored.sha256, size: 1 << 20))?.count == 1 << 20, "the object is whole, and stays")
    }

    /// An object cut short under a true line is damaged, not the line: it is set aside, so
    /// that a device holding the content stores it again.
    @Test func anObjectCutShortUnderATrueLineIsSetAsideAsDamaged() throws {
        let store = ContentStore(layout: layout, device: "d1")
        let stored = try store.store(bytes: Array("the whole content".utf8))
        let object = layout.object(stored.sha256)
        chmod(object, 0o644)
        #expect(truncate(object, 4) == 0)

        let refused = #expect(throws: SyncError.self) { try store.bytes(of: version(stored.sha256, size: stored.size)) }
        #expect(refused?.message.contains("does not hash to its name") == true, "\(String(describing: refused))")
        #expect(Sys.lstat(object) == nil, "set aside")
        #expect(DamagedObjects.entries(in: layout).map(\.hash) == [stored.sha256])
    }
}
