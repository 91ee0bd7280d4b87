import Crypto
import Foundation
import RawPaths
@testable import SyncEngine
import SyncPlanning
import Testing

/// Sync goes through no symbolic link: a version whose path goes through a folder that is
/// a link on this device is refused and reported, never written where the link leads (the
/// kind of flaw behind Syncthing's CVE-2017-1000420); what the link leads to is neither
/// read as the container's nor touched by the mirror view, whose tree has the link too.
@Suite("Nothing is written through a link")
struct LinkTraversalTests {
    /// C made `folder` a link while B edited files in it: the edits win, so B publishes the
    /// folder again (`OccupiedFolders`) and C puts it back in place of its link, with the
    /// edits inside; nothing goes where the link led, and the link is kept beside the
    /// folder under a conflict name (still a link, never followed) and in the history.
    @Test func aFolderThisDeviceMadeALinkComesBackWithTheEditsMadeInItElsewhere() throws {
        let scratch = Scratch()
        let (a, b, c, outside) = try Self.folderMadeALinkWhileEdited(scratch, files: ["x.txt"])
        try b.write("folder/sub/y.txt", "new on b")
        c.sync(confirmDeletes: true)
        b.sync()
        let report = c.sync()
        a.sync()

        #expect(TestDevice.tree(at: outside).isEmpty, "written through the link: \(TestDevice.tree(at: outside))")
        #expect(report.problems.isEmpty, "\(report.problems)")
        let expected = ["folder": "<folder>", "folder/x.txt": "edited on b", "folder/sub": "<folder>", "folder/sub/y.txt": "new on b"]
        for device in [a, b, c] {
            let (copies, others) = device.tree().reduce(into: ([String: String](), [String: String]())) { split, item in
                if item.key.hasPrefix("folder (conflict from ") { split.0[item.key] = item.value } else { split.1[item.key] = item.value }
            }
            #expect(others == expected, "\(device.name): \(device.tree())")
            #expect(Array(copies.values) == ["-> " + outside], "\(device.name): \(copies)")
        }
        #expect(a.tree() == b.tree() && b.tree() == c.tree())
        let versions = try c.engine.versions(container: TestDevice.containerID, path: "Documents/folder")
        #expect(versions.contains { !$0.current && $0.kind == "symlink" }, "the link stays in the history: \(versions)")
    }

    /// A device's log names a link to a folder outside the container, then a file below
    /// the link (a hostile device, or the moment before the folder above comes back):
    /// the file is refused and reported, never written where the link leads.
    @Test func aFileBelowALinkInTheMirrorIsNotWrittenThroughIt() throws {
        let scratch = Scratch()
        let devices = try scratch.devices("a", "c")
        let (a, c) = (devices[0], devices[1])
        let outside = scratch.path + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        let key = "ssh-ed25519 AAAA"
        try a.write("key.txt", key)  // puts the content in the store
        a.sync()
        let log = MirrorLayout(root: a.mirror).log(container: TestDevice.containerID.identifier, device: "hostile")
        var writer = try LogWriter(path: log, device: "hostile", lastSequence: 0)
        let sha256 = SHA256.hash(data: Data(key.utf8)).map { String(format: "%02x", $0) }.joined()
        try writer.append(contentsOf: [
            VersionRecord(
                id: VersionID(device: "hostile", sequence: 1), path: "Documents/ssh", parents: [], state: .symlink(to: outside),
                time: 1_000),
            VersionRecord(
                id: VersionID(device: "hostile", sequence: 2), path: "Documents/ssh/authorized_keys", parents: [],
                state: .file(sha256: sha256, size: Int64(key.utf8.count)), time: 1_000),
        ])
        let report = c.sync()

        #expect(TestDevice.tree(at: outside).isEmpty, "written through the link: \(TestDevice.tree(at: outside))")
        #expect(c.tree() == ["key.txt": key, "ssh": "-> " + outside])
        #expect(
            report.problems.contains { $0.contains("ssh/authorized_keys not written: a folder on its way is a symbolic link") },
            "\(report.problems)")
    }

    @Test func aFileBeyondALinkIsNotReadAsTheContainers() throws {
        let scratch = Scratch()
        let (a, b, c, outside) = try Self.folderMadeALinkWhileEdited(
            scratch, files: ["x.txt", "sub/y.txt"], outside: ["x.txt": "secret outside", "sub/y.txt": "secret below"])
        c.sync(confirmDeletes: true)
        b.sync()
        // A scoped pass, as ubqd runs them: it looks at the paths B changed.
        c.sync(changed: [])
        c.sync()
        a.sync()

        for device in [a, b] {
            #expect(!device.tree().values.contains { $0.hasPrefix("secret") }, "\(device.name): \(device.tree())")
        }
        for path in ["folder/x.txt", "folder/sub/y.txt"] {
            let sizes = try a.engine.versions(container: TestDevice.containerID, path: "Documents/" + path).compactMap(\.size)
            #expect(!sizes.contains { $0 == 14 || $0 == 12 }, "a version read beyond the link: \(path) \(sizes)")
        }
        #expect(TestDevice.tree(at: outside) == ["x.txt": "secret outside", "sub": "<folder>", "sub/y.txt": "secret below"])
    }

    @Test func restoringAVersionBelowAFolderThatIsNowALinkIsRefused() throws {
        let scratch = Scratch()
        let a = try scratch.devices("a")[0]
        let outside = scratch.path + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        // What the link leads to even holds what was last synced at the path.
        try Data("second".utf8).write(to: URL(fileURLWithPath: outside + "/x.txt"))
        try a.write("folder/x.txt", "first")
        a.sync()
        try a.write("folder/x.txt", "second")
        a.sync()
        let first = try #require(try a.engine.versions(container: TestDevice.containerID, path: "Documents/folder/x.txt").last)
        try FileManager.default.removeItem(atPath: a.documents + "/folder")
        try FileManager.default.createSymbolicLink(atPath: a.documents + "/folder", withDestinationPath: outside)

        #expect(throws: SyncError.self) {
            try a.engine.restore(container: TestDevice.containerID, path: "Documents/folder/x.txt", version: try #require(VersionID(first.id)))
        }
        #expect(TestDevice.tree(at: outside) == ["x.txt": "second"])
    }

    /// Devices a, b and c, synced, each holding `files` (text "v1") in `folder/`; then,
    /// neither synced yet, b edits each of them and c replaces `folder` with a link to
    /// `outside`, a folder beside the devices holding `outside` (path: text).
    private static func folderMadeALinkWhileEdited(
        _ scratch: Scratch, files: [String], outside contents: [String: String] = [:]
    ) throws -> (a: TestDevice, b: TestDevice, c: TestDevice, outside: String) {
        let devices = try scratch.devices("a", "b", "c")
        let (a, b, c) = (devices[0], devices[1], devices[2])
        let outside = scratch.path + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        for (path, text) in contents {
            try FileManager.default.createDirectory(atPath: ((outside + "/" + path) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: outside + "/" + path))
        }
        for file in files { try a.write("folder/" + file, "v1") }
        for device in devices { device.sync() }
        for file in files { try b.write("folder/" + file, "edited on b") }  // beats c's deletion
        try FileManager.default.removeItem(atPath: c.documents + "/folder")
        try FileManager.default.createSymbolicLink(atPath: c.documents + "/folder", withDestinationPath: outside)
        return (a, b, c, outside)
    }

    /// The scan reads a file or a link's text just after its status: a folder on the way
    /// swapped for a link in between must not lead the read outside.
    @Test func readsBelowAFolderSwappedForALinkDoNotLeaveTheContainer() throws {
        let scratch = Scratch()
        let container = scratch.path + "/container"
        let outside = scratch.path + "/outside"
        for folder in [container + "/Documents", outside] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        try Data("secret".utf8).write(to: URL(fileURLWithPath: outside + "/x.txt"))
        try FileManager.default.createSymbolicLink(atPath: outside + "/link", withDestinationPath: "secret")
        try FileManager.default.createSymbolicLink(atPath: container + "/Documents/d", withDestinationPath: outside)

        #expect(throws: SyncError.self) { try ContentHashing.hash(RawPath("Documents/d/x.txt"), through: FolderCursor(root: RawPath(container)), refusingWriters: false) }
        #expect(throws: SyncError.self) { try LocalTree.readLink(RawPath("Documents/d/link"), beneath: RawPath(container)) }
        // Where nothing is a link, both read as before.
        try FileManager.default.removeItem(atPath: container + "/Documents/d")
        try FileManager.default.copyItem(atPath: outside, toPath: container + "/Documents/d")
        #expect(try ContentHashing.hash(RawPath("Documents/d/x.txt"), through: FolderCursor(root: RawPath(container)), refusingWriters: false).size == 6)
        #expect(try LocalTree.readLink(RawPath("Documents/d/link"), beneath: RawPath(container)) == "secret")
    }
}

