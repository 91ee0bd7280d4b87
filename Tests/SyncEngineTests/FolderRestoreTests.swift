import APIModel
import Foundation
import SyncPlanning
import TestSupport
import Testing

@testable import SyncEngine

/// `ubq restore FOLDER --version V`: a deleted folder comes back with what it held. It was
/// refused ("the files in it have versions of their own"): each file had to be found with
/// `ubq deleted` and restored alone, and an empty subfolder could not be restored at all.
@Suite struct FolderRestoreTests {
    /// Devices a and b share `proj` (two files, a link, an empty folder, a subfolder); b
    /// deletes it whole, and both sync.
    static func projectDeletedOnB(in scratch: Scratch, before: (TestDevice) throws -> Void = { _ in }) throws -> (TestDevice, TestDevice) {
        let (a, b) = try scratch.pair()
        try a.write("proj/README", "read me")
        try a.write("proj/src/main.c", "int main;")
        try FileManager.default.createDirectory(atPath: a.documents + "/proj/empty", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: a.documents + "/proj/link", withDestinationPath: "README")
        a.sync()
        b.sync()
        try before(b)
        try FileManager.default.removeItem(atPath: b.documents + "/proj")
        b.sync()
        a.sync()
        #expect(a.tree().isEmpty && b.tree().isEmpty)
        return (a, b)
    }

    static func folderVersion(_ device: TestDevice, _ path: String) throws -> VersionID {
        let versions = try device.versions(path)
        return try #require(versions.first { $0.kind == "folder" }.flatMap { VersionID($0.id) }, "\(versions)")
    }

    @Test func aDeletedFolderComesBackWithWhatItHeldOnEveryDevice() throws {
        let scratch = Scratch()
        let (a, b) = try Self.projectDeletedOnB(in: scratch)
        let listed = try a.engine.deletedItems(container: TestDevice.containerID, under: "").map { "\($0.path) \($0.lastVersion.kind)" }
        #expect(Set(listed) == ["Documents/proj folder", "Documents/proj/README file", "Documents/proj/src/main.c file", "Documents/proj/link symlink"],
            "the folder, and not its subfolders: restoring it brings them back")

        let result = try a.engine.restore(container: TestDevice.containerID, path: "Documents/proj", version: try Self.folderVersion(a, "proj"))

        #expect(result.problems.isEmpty, "\(result.problems)")
        #expect(result.restored.sorted() == ["Documents/proj", "Documents/proj/README", "Documents/proj/empty", "Documents/proj/link", "Documents/proj/src", "Documents/proj/src/main.c"])
        let expected = ["proj": "<folder>", "proj/README": "read me", "proj/src": "<folder>", "proj/src/main.c": "int main;", "proj/empty": "<folder>", "proj/link": "-> README"]
        #expect(a.tree() == expected)
        b.sync()
        #expect(b.tree() == expected)
        a.sync()
        #expect(a.tree() == expected && a.engine.conflicts().isEmpty)
        #expect(try a.engine.deletedItems(container: TestDevice.containerID, under: "").isEmpty)
    }

    /// What the user deleted from the folder before deleting the folder was meant to go:
    /// only what went with the folder comes back.
    @Test func whatWasDeletedFromItEarlierStaysDeleted() throws {
        let scratch = Scratch()
        let (a, _) = try Self.projectDeletedOnB(in: scratch) { b in
            try FileManager.default.removeItem(atPath: b.documents + "/proj/README")
            b.sync()
            let deleted = SyncClock.nowMilliseconds()
            while SyncClock.nowMilliseconds() <= deleted + 50 { usleep(1000) }  // the clock, not a guess: the window has passed
        }
        a.engine.deletedWithFolderMilliseconds = 50
        let result = try a.engine.restore(container: TestDevice.containerID, path: "Documents/proj", version: try Self.folderVersion(a, "proj"))
        #expect(!result.restored.contains("Documents/proj/README") && result.restored.contains("Documents/proj/src/main.c"), "\(result.restored)")
        #expect(a.read("proj/README") == nil && a.read("proj/src/main.c") == "int main;")
    }

    /// An item that cannot come back (something new is at its path, not synced yet) is
    /// named, and left as it is; the rest comes back.
    @Test func anItemThatCannotComeBackIsNamedAndTheRestComesBack() throws {
        let scratch = Scratch()
        let (a, _) = try Self.projectDeletedOnB(in: scratch)
        try a.write("proj/README", "written here since")
        try a.write("proj/src", "a file where the folder was")

        let result = try a.engine.restore(container: TestDevice.containerID, path: "Documents/proj", version: try Self.folderVersion(a, "proj"))

        #expect(result.problems.map { String($0.prefix { $0 != ":" }) }.sorted() == ["Documents/proj/README", "Documents/proj/src", "Documents/proj/src/main.c"], "\(result.problems)")
        #expect(a.read("proj/README") == "written here since" && a.read("proj/src") == "a file where the folder was")
        #expect(a.tree()["proj/link"] == "-> README" && a.tree()["proj/empty"] == "<folder>")
    }
}
