import Crypto
import Foundation
import Testing

/// Sync writes through no symbolic link: a version whose path goes through a folder that
/// is a link on this device is refused and reported, never written where the link leads
/// (the kind of flaw behind Syncthing's CVE-2017-1000420).
@Suite("Nothing is written through a link")
struct LinkTraversalTests {
    @Test func filesBelowAFolderThisDeviceMadeALinkAreNotWrittenThroughIt() throws {
        let scratch = Scratch()
        let devices = try scratch.devices("a", "b", "c")
        let (a, b, c) = (devices[0], devices[1], devices[2])
        let outside = scratch.path + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try a.write("folder/x.txt", "v1")
        a.sync()
        b.sync()
        c.sync()
        // B edits a file in the folder and adds one deeper; meanwhile C replaces the
        // folder with a link out of the container. The edit beats C's deletion.
        try b.write("folder/x.txt", "edited on b")
        try b.write("folder/sub/y.txt", "new on b")
        try FileManager.default.removeItem(atPath: c.documents + "/folder")
        try FileManager.default.createSymbolicLink(atPath: c.documents + "/folder", withDestinationPath: outside)
        c.sync(confirmDeletes: true)
        b.sync()
        let report = c.sync()

        #expect(TestDevice.tree(at: outside).isEmpty, "written through the link: \(TestDevice.tree(at: outside))")
        #expect(c.tree() == ["folder": "-> " + outside])
        for path in ["folder/x.txt", "folder/sub/y.txt"] {
            #expect(report.problems.contains { $0.contains("\(path) not written: a folder on its way is a symbolic link") }, "\(report.problems)")
        }
        let versions = try c.engine.versions(container: TestDevice.containerID, path: "Documents/folder/x.txt")
        let edit = SHA256.hash(data: Data("edited on b".utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(versions.contains { $0.current && $0.sha256 == edit }, "the edit stays in the mirror: \(versions)")
    }
}
