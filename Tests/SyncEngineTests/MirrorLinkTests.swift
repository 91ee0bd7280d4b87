import Foundation
import Glibc
@testable import SyncEngine
import Testing

/// Links put in the mirror where its own folders and files should be (by a person, or a
/// replicator that carries links): sync never writes or removes through them, so nothing
/// outside the mirror is touched.
@Suite struct MirrorLinkTests {
    static let container = TestDevice.containerID.identifier

    /// A folder outside the mirror, holding what must survive: its path and its tree.
    static func outsideFolder(in scratch: Scratch) throws -> (String, [String: String]) {
        let outside = scratch.path + "/home-of-a"
        try FileManager.default.createDirectory(atPath: outside + "/projects", withIntermediateDirectories: true)
        try Data("precious".utf8).write(to: URL(fileURLWithPath: outside + "/precious.txt"))
        try Data("code".utf8).write(to: URL(fileURLWithPath: outside + "/projects/main.swift"))
        return (outside, TestDevice.tree(at: outside))
    }

    /// The view's folder, or the folder above it, replaced by a link to a folder outside:
    /// the next pass's check of the view removes what the base does not hold, and must not
    /// reach through the link. The view is made again where it belongs.
    @Test(arguments: [false, true])
    func aViewFolderReplacedByALinkLeadsNowhere(aboveTheView: Bool) throws {
        let scratch = Scratch()
        let (a, _) = try scratch.pair()
        try a.write("doc.txt", "doc")
        a.sync()
        let (outside, before) = try Self.outsideFolder(in: scratch)
        let view = MirrorLayout(root: a.mirror).view(container: Self.container, device: a.engine.device.id)
        let replaced = aboveTheView ? Sys.parent(of: view) : view
        try FileManager.default.removeItem(atPath: replaced)
        if aboveTheView {  // the link leads to a folder whose <device> entry is the outside folder
            let decoy = scratch.path + "/decoy"
            try FileManager.default.createDirectory(atPath: decoy, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: decoy + "/" + a.engine.device.id, withDestinationPath: outside)
            try FileManager.default.createSymbolicLink(atPath: replaced, withDestinationPath: decoy)
        } else {
            try FileManager.default.createSymbolicLink(atPath: replaced, withDestinationPath: outside)
        }
        try a.write("more.txt", "more")
        let report = a.sync()  // a full pass: it checks the whole view

        #expect(TestDevice.tree(at: outside) == before, "reached through the link: \(report.problems)")
        #expect(TestDevice.tree(at: view) == ["Documents": "<folder>", "Documents/doc.txt": "doc", "Documents/more.txt": "more"])
    }
}

extension MirrorLinkTests {
    /// Device a, having synced a file, with its log replaced by a link to a file outside
    /// the mirror that holds `text`; and that file's path.
    static func logLinked(to text: String, in scratch: Scratch) throws -> (TestDevice, String) {
        let (a, _) = try scratch.pair()
        try a.write("doc.txt", "doc")
        a.sync()
        let outside = scratch.path + "/outside"
        try Data(text.utf8).write(to: URL(fileURLWithPath: outside))
        let log = MirrorLayout(root: a.mirror).log(container: container, device: a.engine.device.id)
        try FileManager.default.removeItem(atPath: log)
        try FileManager.default.createSymbolicLink(atPath: log, withDestinationPath: outside)
        return (a, outside)
    }

    /// This device's own log replaced by a link to a file outside the mirror: the next
    /// append must not write through it, and the pass says why it stopped.
    @Test func anOwnLogReplacedByALinkIsNotWrittenThrough() throws {
        let scratch = Scratch()
        let (a, outside) = try Self.logLinked(to: "# my shell setup\n", in: scratch)
        try a.write("more.txt", "more")
        let report = a.sync()

        #expect(try String(contentsOfFile: outside, encoding: .utf8) == "# my shell setup\n")
        #expect(report.problems.contains { $0.contains("is a symbolic link where this device's log should be") }, "\(report.problems)")
    }

    /// The same link met as the log is opened for a new pass (a torn last line is cut
    /// then): the file it leads to is not cut.
    @Test func aLinkInPlaceOfTheLogIsNotCutAtStart() throws {
        let scratch = Scratch()
        let (a, outside) = try Self.logLinked(to: "line one\nno newline at the end", in: scratch)
        try a.restart()
        try a.write("more.txt", "more")
        _ = a.sync()

        #expect(try String(contentsOfFile: outside, encoding: .utf8) == "line one\nno newline at the end")
    }
}
