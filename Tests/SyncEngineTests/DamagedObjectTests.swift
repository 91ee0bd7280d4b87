import Foundation
import Glibc
@testable import SyncEngine
import Testing

/// A store object that no longer hashes to its name: the reader that finds it sets it
/// aside in `store/damaged/` (kept as long as the history's retention), and a device
/// holding the content stores it again in its next full pass, so the file reaches the
/// others after all.
@Suite struct DamagedObjectTests {
    static let container = TestDevice.containerID.identifier

    /// Edited in place through a view file (a hard link to the object), keeping its size:
    /// only a reader's hash tells. A device that names the same content afterwards must
    /// not take the damaged object as stored either.
    @Test func anObjectEditedInPlaceThroughTheViewIsStoredAgain() throws {
        let scratch = Scratch()
        let devices = try scratch.devices("a", "b", "c")
        let (a, b, c) = (devices[0], devices[1], devices[2])
        try a.write("note.txt", "the real content")
        a.sync(settled: true)
        let view = MirrorLayout(root: a.mirror).view(container: Self.container, device: a.engine.device.id) + "/Documents/note.txt"
        try overwrite(view, with: "THE REAL CONTENT")

        let refused = b.sync()
        #expect(b.read("note.txt") == nil)
        #expect(refused.problems.contains { $0.contains("does not hash to its name") && $0.contains("store/damaged/") }, "\(refused.problems)")
        #expect(setAside(in: a.mirror) == ["THE REAL CONTENT"], "the damaged bytes are kept")

        let restored = a.sync()  // a full pass of the device that has the file
        #expect(restored.problems.isEmpty, "\(restored.problems)")
        let fetched = b.sync()
        #expect(b.read("note.txt") == "the real content", "\(fetched.problems)")
        try c.write("copy.txt", "the real content")
        c.sync()
        let report = b.sync()
        #expect(b.read("copy.txt") == "the real content", "\(report.problems)")
        #expect(setAside(in: a.mirror) == ["THE REAL CONTENT"])
    }

    /// Cut short by hand (a failed copy of the mirror): refused and stored again the same way.
    @Test func aTruncatedObjectIsStoredAgain() throws {
        let scratch = Scratch()
        let (a, b, _) = try truncatedAndRefused(in: scratch)
        a.sync()
        let report = b.sync()
        #expect(b.read("note.txt") == "the real content", "\(report.problems)")
        #expect(setAside(in: a.mirror) == ["the "])
    }

    /// A device whose file no longer holds the content stores nothing, says nothing, and
    /// the object stays missing until a device that has it comes by.
    @Test func aDeviceThatNoLongerHasTheContentLeavesItMissing() throws {
        let scratch = Scratch()
        let (a, b, object) = try truncatedAndRefused(in: scratch)
        try a.write("note.txt", "rewritten meanwhile")
        let report = a.sync()

        #expect(Sys.lstat(object) == nil)
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(b.sync().problems.isEmpty)
        #expect(b.read("note.txt") == "rewritten meanwhile")
    }

    /// The collector deletes what was set aside once the retention has passed since, where
    /// the content is whole in the store again; where it is not (no device had it), the
    /// damaged bytes stay, the only trace of it.
    @Test func setAsideBytesGoAfterTheRetentionOnceTheContentIsBack() throws {
        let scratch = Scratch()
        let (a, b, _) = try truncatedAndRefused(in: scratch)
        try a.write("other.txt", "another file")
        a.sync()
        let c = try TestDevice("c", in: scratch.path, mirror: a.mirror)
        try c.write("lost.txt", "only c had this")
        c.sync()
        let lost = try #require(try c.engine.versions(container: TestDevice.containerID, path: "Documents/lost.txt").first?.sha256)
        #expect(truncate(MirrorLayout(root: a.mirror).object(lost), 3) == 0)
        b.sync()  // refuses both: sets both aside
        #expect(setAside(in: a.mirror).count == 2)
        try FileManager.default.removeItem(atPath: c.documents + "/lost.txt")  // before c syncs again: still current, and no one can store it again
        a.sync()  // a full pass: a stores note.txt again

        let now = SyncClock.nowMilliseconds()
        #expect(a.engine.collectStore(now: now + 2 * 86_400_000).damagedDeleted == 0, "kept for the retention")
        let later = a.engine.collectStore(now: now + 31 * 86_400_000)
        #expect(later.problems.isEmpty, "\(later.problems)")
        #expect(later.damagedDeleted == 1)
        #expect(setAside(in: a.mirror) == ["onl"], "the only trace of content a kept version needs stays")
        let requests = try FileManager.default.contentsOfDirectory(atPath: MirrorLayout(root: a.mirror).damaged).filter { $0.hasSuffix(".missing") }
        #expect(requests == [lost + ".missing"], "and so does the request for it, which a reader that missed it left")
    }

    /// Gone from the store altogether (its folder deleted by hand, a copy of the mirror
    /// that lost it): the reader that misses the object asks for it, under one name however
    /// many ask, and a device that has the file stores it again in its next full pass.
    /// Before, nothing asked: the content never came back, and no other device ever got it.
    @Test func anObjectGoneFromTheStoreIsAskedForAndStoredAgain() throws {
        let scratch = Scratch()
        let devices = try scratch.devices("a", "b", "c")
        let (a, b, c) = (devices[0], devices[1], devices[2])
        try a.write("note.txt", "the real content")
        a.sync()
        let object = try onlyObject(in: a.mirror)
        #expect(unlink(object) == 0)

        for device in [b, c] {
            let refused = device.sync()
            #expect(refused.problems.contains { $0.contains("is missing from the store (or not copied here yet); a device that has the file will store it again") }, "\(refused.problems)")
        }
        let requests = try FileManager.default.contentsOfDirectory(atPath: MirrorLayout(root: a.mirror).damaged)
        #expect(requests == [(object as NSString).lastPathComponent + ".missing"])

        a.sync()  // a full pass of the device that has the file
        #expect(Sys.readRegularFile(object) == Array("the real content".utf8))
        for device in [b, c] {
            let report = device.sync()
            #expect(device.read("note.txt") == "the real content", "\(report.problems)")
        }
    }

    /// A reader sets aside only the file it read: a good object another device stored
    /// under the name meanwhile stays.
    @Test func aGoodObjectStoredMeanwhileIsNotSetAside() throws {
        let scratch = Scratch()
        let object = scratch.path + "/store/sha256/ab/" + String(repeating: "ab", count: 32)
        try FileManager.default.createDirectory(atPath: Sys.parent(of: object), withIntermediateDirectories: true)
        try overwrite(object, with: "damaged", creating: true)
        let read = open(object, O_RDONLY)
        defer { close(read) }
        try overwrite(object + ".new", with: "good", creating: true)
        #expect(rename(object + ".new", object) == 0)

        #expect(DamagedObjects.setAside(object, read: read) == nil)
        #expect(Sys.readRegularFile(object) == Array("good".utf8))
        let moved = try #require(DamagedObjects.setAside(object, read: open(object, O_RDONLY)))
        #expect(moved.hasPrefix(scratch.path + "/store/damaged/" + String(repeating: "ab", count: 32) + "."))
        #expect(Sys.lstat(object) == nil)
    }

    private func overwrite(_ path: String, with text: String, creating: Bool = false) throws {
        chmod(path, 0o644)  // as a person who ignored the view's read-only mode would
        let fd = open(path, O_WRONLY | O_TRUNC | (creating ? O_CREAT : 0), 0o644)
        #expect(fd >= 0, "open \(path)")
        defer { close(fd) }
        try Sys.writeAll(fd, Array(text.utf8), path: path)
    }

    /// Devices a and b, a's `note.txt` synced, its object then cut short, and b's fetch of
    /// it refused (so set aside). Returns the object's path.
    private func truncatedAndRefused(in scratch: Scratch) throws -> (TestDevice, TestDevice, String) {
        let (a, b) = try scratch.pair()
        try a.write("note.txt", "the real content")
        a.sync()
        let object = try onlyObject(in: a.mirror)
        #expect(truncate(object, 4) == 0)
        #expect(b.sync().problems.contains { $0.contains("does not hash to its name") })
        return (a, b, object)
    }

    /// The path of the one object in `mirror`'s store.
    private func onlyObject(in mirror: String) throws -> String {
        let store = MirrorLayout(root: mirror).objects
        let objects = try FileManager.default.subpathsOfDirectory(atPath: store).filter { $0.count > 60 }
        try #require(objects.count == 1, "\(objects)")
        return store + "/" + objects[0]
    }

    /// The texts of the objects set aside in `mirror`'s store (not the requests for
    /// objects found missing, `<hash>.missing`).
    private func setAside(in mirror: String) -> [String] {
        let folder = MirrorLayout(root: mirror).damaged
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasSuffix(".missing") }
        return names.compactMap { Sys.readRegularFile(folder + "/" + $0).map { String(decoding: $0, as: UTF8.self) } }
    }
}
