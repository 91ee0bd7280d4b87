import Foundation
import Glibc
import RawPaths
import SyncEngine
import SyncPlanning
import Testing

@Suite("Each device's browsable view of a container in the mirror")
struct MirrorViewTests {
    @Test func afterAPassTheViewIsTheSyncedTree() throws {
        let scratch = Scratch()
        let a = try scratch.devices("a")[0]
        try a.write("notes/hello.txt", "hello")
        try a.write("notes/deep/er.txt", "deeper")
        try a.write("top.txt", "")
        try FileManager.default.createDirectory(atPath: a.documents + "/empty", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: a.documents + "/link", withDestinationPath: "notes/hello.txt")
        try FileManager.default.createSymbolicLink(atPath: a.documents + "/dangling", withDestinationPath: "../nowhere")
        let report = a.sync()
        #expect(report.problems.isEmpty)
        #expect(a.viewTree() == a.tree())
        #expect(a.viewTree()["link"] == "-> notes/hello.txt", "a symlink stays a symlink, never followed")
        #expect(a.viewTree()["empty"] == "<folder>")
    }

    @Test func editsRenamesAndDeletesReachTheViewInAScopedPass() throws {
        let scratch = Scratch()
        let a = try scratch.devices("a")[0]
        try a.write("one.txt", "1")
        try a.write("two.txt", "2")
        try a.write("gone/inside.txt", "x")
        try a.write("becomes-folder", "file first")
        a.sync()
        try a.write("one.txt", "1, edited")
        try FileManager.default.moveItem(atPath: a.documents + "/two.txt", toPath: a.documents + "/deux.txt")
        try FileManager.default.removeItem(atPath: a.documents + "/gone")
        try FileManager.default.removeItem(atPath: a.documents + "/becomes-folder")
        try a.write("becomes-folder/now.txt", "now a folder")
        let report = a.syncChanged("one.txt", "two.txt", "deux.txt", "gone", "becomes-folder")
        #expect(report.problems.isEmpty)
        #expect(a.viewTree() == [
            "one.txt": "1, edited", "deux.txt": "2", "becomes-folder": "<folder>", "becomes-folder/now.txt": "now a folder",
        ])
    }

    @Test func aViewFileSharesTheObjectsStorage() throws {
        let scratch = Scratch()
        let a = try scratch.devices("a")[0]
        try a.write("shared.txt", "one copy only")
        a.sync()
        let viewFile = try #require(Self.lstat(a.view + "/Documents/shared.txt"))
        let object = try #require(Self.lstat(try a.onlyObject()))
        #expect(viewFile.st_mode & 0o7777 == 0o444, "read-only like the object")
        if Self.filesystemCanReflink(in: scratch.path) {
            #expect(viewFile.st_ino != object.st_ino, "a reflink has its own inode")
            #expect(object.st_nlink == 1)
        } else {
            #expect(viewFile.st_ino == object.st_ino && viewFile.st_dev == object.st_dev, "a hard link to the object")
            #expect(object.st_nlink == 2)
        }
        #expect(FileManager.default.contents(atPath: a.view + "/Documents/shared.txt") == Data("one copy only".utf8))
    }

    /// Device a with a file, a folder holding a file and a link to the first, synced; and
    /// its view's tree then.
    static func syncedSample(_ scratch: Scratch) throws -> (TestDevice, [String: String]) {
        let a = try scratch.devices("a")[0]
        try a.write("keep.txt", "keep")
        try a.write("folder/in.txt", "in")
        try FileManager.default.createSymbolicLink(atPath: a.documents + "/link", withDestinationPath: "keep.txt")
        a.sync()
        return (a, a.viewTree())
    }

    @Test func aFullPassRepairsATamperedView() throws {
        let scratch = Scratch()
        let (a, synced) = try Self.syncedSample(scratch)
        try FileManager.default.removeItem(atPath: a.view + "/Documents/keep.txt")
        try Data("stray".utf8).write(to: URL(fileURLWithPath: a.view + "/Documents/stray.txt"))
        try FileManager.default.createDirectory(atPath: a.view + "/Documents/stray-folder/sub", withIntermediateDirectories: true)
        try FileManager.default.removeItem(atPath: a.view + "/Documents/link")
        try Data("not a link".utf8).write(to: URL(fileURLWithPath: a.view + "/Documents/link"))
        try FileManager.default.removeItem(atPath: a.view + "/Documents/folder")
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: a.view + "/Documents/folder"))
        a.sync(changed: [])
        #expect(a.viewTree() != synced, "a pass that changed nothing leaves the view alone")
        let report = a.sync()
        #expect(report.problems.isEmpty)
        #expect(a.viewTree() == synced)
    }

    /// A full pass checks each entry it finds under a right name: a file replaced by one of
    /// the same size, a link pointing elsewhere, a folder replaced by a link (never followed:
    /// what lies behind it is left alone).
    @Test func aFullPassRepairsEntriesWithTheRightNameButNotTheRightState() throws {
        let scratch = Scratch()
        let (a, synced) = try Self.syncedSample(scratch)
        let outside = scratch.path + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try Data("outside".utf8).write(to: URL(fileURLWithPath: outside + "/in.txt"))
        try Data("stray".utf8).write(to: URL(fileURLWithPath: outside + "/stray.txt"))
        let view = a.view + "/Documents"
        try FileManager.default.removeItem(atPath: view + "/keep.txt")
        try Data("kept".utf8).write(to: URL(fileURLWithPath: view + "/keep.txt"))
        try FileManager.default.removeItem(atPath: view + "/link")
        try FileManager.default.createSymbolicLink(atPath: view + "/link", withDestinationPath: "elsewhere")
        try FileManager.default.removeItem(atPath: view + "/folder")
        try FileManager.default.createSymbolicLink(atPath: view + "/folder", withDestinationPath: outside)
        let report = a.sync()
        #expect(report.problems.isEmpty)
        #expect(a.viewTree() == synced)
        #expect(TestDevice.tree(at: outside) == ["in.txt": "outside", "stray.txt": "stray"], "nothing behind a link is touched")
    }

    @Test func twoDevicesKeepTheirOwnViewsAndTheyAgree() throws {
        let scratch = Scratch()
        let devices = try scratch.devices("a", "b")
        let (a, b) = (devices[0], devices[1])
        try a.write("from-a.txt", "a")
        try FileManager.default.createSymbolicLink(atPath: a.documents + "/to-a", withDestinationPath: "from-a.txt")
        a.sync()
        try b.write("from-b/file.txt", "b")
        b.sync()
        a.sync()
        #expect(a.view != b.view)
        #expect(a.viewTree() == a.tree())
        #expect(b.viewTree() == b.tree())
        #expect(a.viewTree() == b.viewTree())
        #expect(a.viewTree().count == 4)
    }

    @Test func withoutLinksViewsAreOffAndSyncGoesOn() throws {
        let scratch = Scratch()
        let devices = try scratch.devices("a", "b")
        let (a, b) = (devices[0], devices[1])
        let faults = FaultInjection()
        faults.fail("link", with: EPERM)
        faults.fail("FICLONE", with: EOPNOTSUPP)
        a.engine.faults = faults
        try a.write("doc.txt", "still synced")
        let first = a.sync()
        #expect(first.published >= 1)
        let off = first.problems.filter { $0.contains("mirror views need hard links or reflinks") && $0.contains("views are off") }
        #expect(off.count == 1, "said once: \(first.problems)")
        #expect(a.viewTree().isEmpty, "no copies instead of links")
        try a.write("doc.txt", "edited")
        #expect(a.sync().problems.isEmpty, "not repeated every pass")
        #expect(a.engine.status().first?.problems == off, "but shown in the status while it holds")
        b.sync()
        #expect(b.read("doc.txt") == "edited")
        #expect(b.viewTree() == b.tree())
    }

    @Test func aViewThatCannotBeWrittenNeverFailsThePass() throws {
        let scratch = Scratch()
        let devices = try scratch.devices("a", "b")
        let (a, b) = (devices[0], devices[1])
        let faults = FaultInjection()
        faults.fail("link", with: ENOSPC)
        faults.fail("FICLONE", with: EOPNOTSUPP)
        a.engine.faults = faults
        try a.write("doc.txt", "synced anyway")
        let report = a.sync()
        #expect(report.published >= 1 && !report.incomplete)
        #expect(report.problems.contains { $0.contains("mirror view not updated") && $0.contains("No space left") }, "\(report.problems)")
        #expect(!report.problems.contains { $0.contains("views are off") }, "a full disk is not a filesystem without links")
        b.sync()
        #expect(b.read("doc.txt") == "synced anyway")
        a.engine.faults = nil  // space again: the next full pass writes the view
        #expect(a.sync().problems.isEmpty)
        #expect(a.viewTree() == a.tree())
    }

    /// ext4 allows an inode 65,000 links: as many identical (say, empty) files reach it.
    /// The view entries past it are copies of the object, kept as they are by later passes.
    @Test func whereTheObjectHasTooManyLinksTheViewGetsCopies() throws {
        let scratch = Scratch()
        let a = try scratch.devices("a")[0]
        let faults = FaultInjection()
        faults.fail("link", with: EMLINK)
        faults.fail("FICLONE", with: EOPNOTSUPP)
        a.engine.faults = faults
        for name in ["empty-1", "empty-2"] { try a.write(name, "") }
        for name in ["same-1.txt", "same-2.txt"] { try a.write(name, "the same text") }
        let report = a.sync()
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(a.viewTree() == a.tree())
        let copy = try #require(Self.lstat(a.view + "/Documents/same-1.txt"))
        let hash = EditFollowsRenameTests.sha256("the same text")
        let object = try #require(Self.lstat(a.mirror + "/store/sha256/\(hash.prefix(2))/\(hash)"))
        #expect(copy.st_ino != object.st_ino, "a copy, not a link")
        #expect(copy.st_mode & 0o7777 == 0o444)
        #expect(copy.st_mtim.tv_sec == object.st_mtim.tv_sec && copy.st_mtim.tv_nsec == object.st_mtim.tv_nsec)
        #expect(a.sync().problems.isEmpty)
        #expect(Self.lstat(a.view + "/Documents/same-1.txt")?.st_ino == copy.st_ino, "a full pass keeps the copy")
    }

    @Test func aResolutionReachesTheView() throws {
        let scratch = Scratch()
        let (a, _) = try scratch.conflictedPair()
        let loser = try #require(a.engine.conflicts().first?.others.first)
        try a.engine.resolve(container: TestDevice.containerID, path: "Documents/doc.txt", keep: .version(try #require(VersionID(loser.id))))
        a.sync(changed: [])  // nothing changed locally: only the resolution
        #expect(a.viewTree() == a.tree())
        #expect(a.viewTree()["doc.txt"] == a.read("doc.txt"))
    }

    // MARK: Helpers

    static func lstat(_ path: String) -> stat? {
        var info = stat()
        return Glibc.lstat(path, &info) == 0 ? info : nil
    }

    /// Whether `folder`'s filesystem makes reflinks, asked of coreutils rather than of the
    /// code under test.
    static func filesystemCanReflink(in folder: String) -> Bool {
        let source = folder + "/reflink-probe", copy = folder + "/reflink-probe-copy"
        guard FileManager.default.createFile(atPath: source, contents: Data("probe".utf8)) else { return false }
        defer {
            try? FileManager.default.removeItem(atPath: source)
            try? FileManager.default.removeItem(atPath: copy)
        }
        let cp = Process()
        cp.executableURL = URL(fileURLWithPath: "/usr/bin/cp")
        cp.arguments = ["--reflink=always", source, copy]
        cp.standardError = FileHandle.nullDevice
        guard (try? cp.run()) != nil else { return false }
        cp.waitUntilExit()
        return cp.terminationStatus == 0
    }
}

extension TestDevice {
    /// This device's view of the test container in the mirror.
    var view: String { engine.layout.view(container: Self.containerID.identifier, device: engine.device.id) }

    /// The view's Documents folder, as `tree()` renders the local one.
    func viewTree() -> [String: String] { Self.tree(at: view + "/Documents") }

    /// A scoped pass, as the daemon runs for these paths (relative to Documents) changing.
    @discardableResult
    func syncChanged(_ relatives: String...) -> PassReport {
        let scope = Set(relatives.map { RawPath("Documents/" + $0) })
        return sync(changed: scope)
    }

    /// The store's only object (the test stored one file).
    func onlyObject() throws -> String {
        let store = mirror + "/store/sha256"
        let objects = try FileManager.default.subpathsOfDirectory(atPath: store).filter { $0.count == 2 + 1 + 64 }
        return store + "/" + (try #require(objects.count == 1 ? objects.first : nil))
    }
}
