import Foundation
import Glibc
import SyncEngine
import SyncPlanning
import Testing

/// Retention and the store's collection on real mirrors: what expires is hidden and its
/// content deleted, and nothing still needed (by a head, a recent version, another
/// container, a young upload) is ever touched.
@Suite("History retention and store collection")
struct RetentionSyncTests {
    static let day: Int64 = 86_400_000

    /// The names of the objects in the mirror's store.
    func objects(_ mirror: String) -> Set<String> {
        let store = mirror + "/store/sha256"
        let prefixes = (try? FileManager.default.contentsOfDirectory(atPath: store)) ?? []
        return Set(prefixes.flatMap { (try? FileManager.default.contentsOfDirectory(atPath: store + "/" + $0)) ?? [] })
    }

    func path(ofObject name: String, in mirror: String) -> String {
        "\(mirror)/store/sha256/\(name.prefix(2))/\(name)"
    }

    /// Sets an object's modification time `age` milliseconds before `now`.
    func age(_ object: String, by age: Int64, now: Int64) {
        let then = now - age
        var times = [timespec(tv_sec: Int(then / 1000), tv_nsec: 0), timespec(tv_sec: Int(then / 1000), tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, object, &times, 0) == 0)
    }

    @Test func expiredVersionsAreHiddenRefusedAndTheirContentCollected() throws {
        let scratch = Scratch()
        let devices = try scratch.devices("a", "b")
        let (a, b) = (devices[0], devices[1])
        for text in ["first", "second", "third"] {
            try a.write("doc.txt", text)
            a.sync()
        }
        b.sync()
        let mirror = scratch.path + "/mirror"
        let stored = objects(mirror)
        #expect(stored.count == 3)
        let now = SyncClock.nowMilliseconds()
        let later = now + 31 * Self.day
        let versions = try a.engine.versions(container: TestDevice.containerID, path: "Documents/doc.txt")
        #expect(versions.count == 3)
        let expired = try a.engine.versions(container: TestDevice.containerID, path: "Documents/doc.txt", now: later)
        #expect(expired.map(\.current) == [true], "only the current version is left a month later")
        let oldest = try #require(versions.last)
        let first = try #require(VersionID(oldest.id))
        #expect(throws: SyncError.self) {
            try a.engine.restore(container: TestDevice.containerID, path: "Documents/doc.txt", version: first, now: later)
        }

        let collection = a.engine.collectStore(now: later)
        #expect(collection.problems.isEmpty, "\(collection.problems)")
        #expect(collection.deleted == 2)
        #expect(objects(mirror).count == 1)
        // The current content is still there: a new device gets it.
        let c = try TestDevice("c", in: scratch.path, mirror: mirror)
        c.sync()
        #expect(c.read("doc.txt") == "third")
        #expect(b.read("doc.txt") == "third")
    }

    @Test func collectionKeepsConflictsRecentVersionsAndYoungObjects() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.conflictedPair()
        let mirror = scratch.path + "/mirror"
        #expect(objects(mirror).count == 3)
        let now = SyncClock.nowMilliseconds()
        #expect(a.engine.collectStore(now: now + 2 * Self.day).deleted == 0, "`base` was replaced two days ago: kept for 30")
        let stray = String(repeating: "ab", count: 32)  // no log names it, like an upload cut short before its log line
        try FileManager.default.createDirectory(atPath: mirror + "/store/sha256/ab", withIntermediateDirectories: true)
        try Data("stray".utf8).write(to: URL(fileURLWithPath: path(ofObject: stray, in: mirror)))
        #expect(a.engine.collectStore(now: now + 12 * 3_600_000).deleted == 0, "a young object is never collected")

        let collection = a.engine.collectStore(now: now + 40 * Self.day)
        #expect(collection.deleted == 2, "`base` and the stray object")
        #expect(!objects(mirror).contains(stray))
        #expect(objects(mirror).count == 2, "both heads of the conflict")
        let conflict = try #require(a.engine.conflicts().first)
        let loser = try #require(VersionID(conflict.others[0].id))
        try b.engine.resolve(container: TestDevice.containerID, path: "Documents/doc.txt", keep: .version(loser))
        b.sync()
        a.sync()
        #expect(a.read("doc.txt") == b.read("doc.txt"))
    }

    /// What a device's crash left in `store/incoming/` (uploads, folders of early copies)
    /// goes once a day old, even when no object is to be collected; another device's
    /// uploads, and this device's young ones, stay.
    @Test func aDevicesOwnStaleUploadsAndTheirFoldersAreRemoved() throws {
        let scratch = Scratch()
        let a = try scratch.devices("a")[0]
        try a.write("doc.txt", "kept")
        a.sync()
        let incoming = scratch.path + "/mirror/store/incoming"
        let own = "\(incoming)/\(a.engine.device.id)"
        let now = SyncClock.nowMilliseconds()
        let files = ["\(own).1.part", "\(own).2-0/0.part", "\(own).2-0/1.part", "\(own).3-0/0.part", "\(incoming)/0123456789abcdef.4.part"]
        for file in files {
            try FileManager.default.createDirectory(at: URL(fileURLWithPath: file).deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("partial".utf8).write(to: URL(fileURLWithPath: file))
            age(file, by: 2 * Self.day, now: now)
        }
        age("\(own).3-0/0.part", by: 0, now: now)  // young: a pass may still need it

        #expect(a.engine.collectStore(now: now).deleted == 0)
        let left = Set((try FileManager.default.subpathsOfDirectory(atPath: incoming)))
        #expect(left == ["\(a.engine.device.id).3-0", "\(a.engine.device.id).3-0/0.part", "0123456789abcdef.4.part"])
    }

    @Test func contentNamedByAnotherContainersLogIsKept() throws {
        let scratch = Scratch()
        let a = try scratch.devices("a")[0]
        try a.write("old.txt", "old")
        a.sync()
        try FileManager.default.removeItem(atPath: a.documents + "/old.txt")
        a.sync()
        let mirror = scratch.path + "/mirror"
        let name = try #require(objects(mirror).first)
        // A container this device does not sync names the same content in its log.
        let log = mirror + "/containers/iCloud.org.example.Other/log"
        try FileManager.default.createDirectory(atPath: log, withIntermediateDirectories: true)
        let line = #"{"seq":1,"time":1,"path":"Documents/copy.txt","parents":[],"op":"put","kind":"file","mode":420,"sha256":"\#(name)","size":3}"#
        try Data((line + "\n").utf8).write(to: URL(fileURLWithPath: log + "/0123456789abcdef.ndjson"))
        #expect(a.engine.collectStore(now: SyncClock.nowMilliseconds() + 40 * Self.day).deleted == 0)
        #expect(objects(mirror) == [name])
    }

    @Test func aLogLineThatCannotBeReadStopsTheCollection() throws {
        let scratch = Scratch()
        let a = try scratch.devices("a")[0]
        try a.write("doc.txt", "one")
        a.sync()
        try a.write("doc.txt", "two")
        a.sync()
        let mirror = scratch.path + "/mirror"
        let log = mirror + "/containers/iCloud.org.example.Other/log/0123456789abcdef.ndjson"
        try FileManager.default.createDirectory(atPath: (log as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data("{not json\n".utf8).write(to: URL(fileURLWithPath: log))
        let collection = a.engine.collectStore(now: SyncClock.nowMilliseconds() + 40 * Self.day)
        #expect(collection.deleted == 0)
        #expect(collection.problems.contains { $0.contains("store not collected") && $0.contains("0123456789abcdef") }, "\(collection.problems)")
        #expect(objects(mirror).count == 2)
    }

    @Test func uploadingContentTheStoreHasTouchesItSoTheCollectorSparesIt() throws {
        let scratch = Scratch()
        let a = try scratch.devices("a")[0]
        try a.write("one.txt", "same")
        a.sync()
        let mirror = scratch.path + "/mirror"
        let object = path(ofObject: try #require(objects(mirror).first), in: mirror)
        let now = SyncClock.nowMilliseconds()
        age(object, by: 10 * Self.day, now: now)
        try a.write("two.txt", "same")
        a.sync()
        let modified = try #require(FileManager.default.attributesOfItem(atPath: object)[.modificationDate] as? Date)
        #expect(modified.timeIntervalSince1970 * 1000 > Double(now - Self.day), "the reused object was touched")
    }

    @Test func historyKeptForeverIsNeverCollected() throws {
        let scratch = Scratch()
        let a = try TestDevice("a", in: scratch.path, mirror: scratch.path + "/mirror", retention: .forever)
        try a.write("doc.txt", "one")
        a.sync()
        try a.write("doc.txt", "two")
        a.sync()
        #expect(a.engine.collectStore(now: SyncClock.nowMilliseconds() + 4_000 * Self.day).deleted == 0)
        #expect(objects(scratch.path + "/mirror").count == 2)
    }
}
