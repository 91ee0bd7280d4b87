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

    /// The window the tests restore with (`deletedWithFolderMilliseconds`), shortened.
    static let window: Int64 = 50

    /// Returns once what is deleted from now on is stamped past `window` after what was
    /// deleted until now: it waits on the clock, not for a guessed time.
    static func waitOutTheWindow() {
        let until = SyncClock.nowMilliseconds() + window
        while SyncClock.nowMilliseconds() <= until { usleep(1000) }
    }

    static func folderVersion(_ device: TestDevice, _ path: String) throws -> VersionID {
        let versions = try device.versions(path)
        return try #require(versions.first { $0.kind == "folder" }.flatMap { VersionID($0.id) }, "\(versions)")
    }

    @Test func aDeletedFolderComesBackWithWhatItHeldOnEveryDevice() throws {
        let scratch = Scratch()
        let (a, b) = try Self.projectDeletedOnB(in: scratch)
        let listed = try a.engine.deletedItems(container: TestDevice.containerID, under: "").map { "\($0.path) \($0.lastVersion.kind) in \($0.folder ?? "-")" }
        #expect(Set(listed) == [
            "Documents/proj folder in -", "Documents/proj/README file in Documents/proj", "Documents/proj/src/main.c file in Documents/proj",
            "Documents/proj/link symlink in Documents/proj",
        ], "the folder, and not its subfolders: restoring it brings them back, and what went with it")

        let result = try a.engine.restore(container: TestDevice.containerID, path: "Documents/proj", version: try Self.folderVersion(a, "proj"))

        #expect((result.problems ?? []).isEmpty, "\(result)")
        #expect((result.items ?? []).sorted() == ["Documents/proj", "Documents/proj/README", "Documents/proj/empty", "Documents/proj/link", "Documents/proj/src", "Documents/proj/src/main.c"])
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
            Self.waitOutTheWindow()
        }
        a.engine.deletedWithFolderMilliseconds = Self.window
        let result = try a.engine.restore(container: TestDevice.containerID, path: "Documents/proj", version: try Self.folderVersion(a, "proj"))
        #expect(!(result.items ?? []).contains("Documents/proj/README") && (result.items ?? []).contains("Documents/proj/src/main.c"), "\(result)")
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

        #expect((result.problems ?? []).map { String($0.prefix { $0 != ":" }) }.sorted() == ["Documents/proj/README", "Documents/proj/src", "Documents/proj/src/main.c"], "\(result)")
        #expect(a.read("proj/README") == "written here since" && a.read("proj/src") == "a file where the folder was")
        #expect(a.tree()["proj/link"] == "-> README" && a.tree()["proj/empty"] == "<folder>")
    }

    /// A renamed folder is no deleted one: not listed, and not restored as a copy holding
    /// its links and subfolders without its files (a folder's arrival names no origin;
    /// its files' do).
    @Test func aRenamedFolderIsNeitherListedNorRestored() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("notes/one.txt", "one")
        try FileManager.default.createDirectory(atPath: a.documents + "/notes/sub", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: a.documents + "/notes/link", withDestinationPath: "one.txt")
        a.sync()
        b.sync()
        try FileManager.default.moveItem(atPath: b.documents + "/notes", toPath: b.documents + "/archive")
        b.sync()
        a.sync()
        #expect(a.tree()["archive/one.txt"] == "one" && a.tree()["notes"] == nil, "\(a.tree())")

        let listed = try a.engine.deletedItems(container: TestDevice.containerID, under: "").map(\.path)
        #expect(!listed.contains("Documents/notes") && !listed.contains("Documents/notes/sub"), "\(listed)")
        let version = try Self.folderVersion(a, "notes")
        let error = #expect(throws: SyncError.self) {
            try a.engine.restore(container: TestDevice.containerID, path: "Documents/notes", version: version)
        }
        #expect(error?.message == "Documents/notes was renamed or moved, not deleted: Documents/notes/one.txt is now Documents/archive/one.txt", "\(String(describing: error))")
        #expect(a.tree()["notes"] == nil)
    }

    /// A folder deleted before the folder it was in went is listed: restoring the outer one
    /// does not bring it back.
    @Test func aSubfolderDeletedEarlierIsListedOnItsOwn() throws {
        let scratch = Scratch()
        let a = try scratch.devices("a")[0]
        a.engine.deletedWithFolderMilliseconds = Self.window
        try FileManager.default.createDirectory(atPath: a.documents + "/outer/inner", withIntermediateDirectories: true)
        a.sync()
        try FileManager.default.removeItem(atPath: a.documents + "/outer/inner")
        a.sync()
        Self.waitOutTheWindow()
        try FileManager.default.removeItem(atPath: a.documents + "/outer")
        a.sync()
        #expect(Set(try a.engine.deletedItems(container: TestDevice.containerID, under: "").map { "\($0.path) in \($0.folder ?? "-")" }) == [
            "Documents/outer in -", "Documents/outer/inner in -",
        ], "inner did not go with outer")
        let result = try a.engine.restore(container: TestDevice.containerID, path: "Documents/outer", version: try Self.folderVersion(a, "outer"))
        #expect(result.items == ["Documents/outer"] && a.tree() == ["outer": "<folder>"], "\(a.tree())")
    }

    /// What another device deleted from the folder just before this one deleted the folder
    /// was its user's choice: it stays deleted.
    @Test func whatAnotherDeviceDeletedFromItStaysDeleted() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("proj/README", "read me")
        try a.write("proj/kept.txt", "kept")
        a.sync()
        b.sync()
        try FileManager.default.removeItem(atPath: a.documents + "/proj/README")
        a.sync()
        b.sync()
        try FileManager.default.removeItem(atPath: b.documents + "/proj")
        b.sync()
        a.sync()
        let result = try a.engine.restore(container: TestDevice.containerID, path: "Documents/proj", version: try Self.folderVersion(a, "proj"))
        #expect((result.items ?? []).sorted() == ["Documents/proj", "Documents/proj/kept.txt"], "\(result)")
        #expect(a.tree() == ["proj": "<folder>", "proj/kept.txt": "kept"])
    }

    /// Folders come back with their own modes, on every device: a private folder stays so.
    @Test func foldersComeBackWithTheirModes() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("private/inner/secret.txt", "secret")
        chmod(a.documents + "/private", 0o700)
        chmod(a.documents + "/private/inner", 0o750)
        a.sync()
        b.sync()
        try FileManager.default.removeItem(atPath: b.documents + "/private")
        b.sync()
        a.sync()
        try a.engine.restore(container: TestDevice.containerID, path: "Documents/private", version: try Self.folderVersion(a, "private"))
        #expect(ModeBitsTests.mode(a.documents + "/private") == 0o700 && ModeBitsTests.mode(a.documents + "/private/inner") == 0o750)
        a.sync()
        b.sync()
        #expect(ModeBitsTests.mode(b.documents + "/private") == 0o700 && ModeBitsTests.mode(b.documents + "/private/inner") == 0o750)
        #expect(b.read("private/inner/secret.txt") == "secret")
    }

    /// Times in the mirror are their writers' word: a folder deleted "at" the earliest time
    /// there is must not trap the arithmetic of the window (a crash of ubqd).
    @Test func aDeletionDatedAtTheStartOfTimeIsRestored() throws {
        let scratch = Scratch()
        let a = try scratch.devices("a", retention: .forever)[0]
        a.sync()  // the mirror made
        let writer = "w000000000000001"
        let layout = MirrorLayout(root: a.mirror)
        let log = layout.log(container: TestDevice.containerID.identifier, device: writer)
        try FileManager.default.createDirectory(atPath: Sys.parent(of: log), withIntermediateDirectories: true)
        let lines = [
            #"{"seq":1,"time":-9223372036854775800,"path":"Documents/old","parents":[],"op":"put","kind":"folder","mode":493}"#,
            #"{"seq":2,"time":-9223372036854775799,"path":"Documents/old/sub","parents":[],"op":"put","kind":"folder","mode":493}"#,
            #"{"seq":3,"time":-9223372036854775791,"path":"Documents/old/sub","parents":["w000000000000001:2"],"op":"delete"}"#,
            #"{"seq":4,"time":-9223372036854775790,"path":"Documents/old","parents":["w000000000000001:1"],"op":"delete"}"#,
        ]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: log))
        a.sync()
        let result = try a.engine.restore(container: TestDevice.containerID, path: "Documents/old", version: try #require(VersionID("w000000000000001:1")))
        #expect(result.items == ["Documents/old", "Documents/old/sub"] && a.tree() == ["old": "<folder>", "old/sub": "<folder>"], "\(result)")
    }

    /// A file moved out of the folder before the rest was deleted lives on where it went:
    /// the folder is deleted (listed, restorable), and its restore leaves that file out.
    @Test(arguments: ["README", "keep/README"])
    func aFileMovedOutBeforeTheFolderWentStaysWhereItWent(to destination: String) throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("proj/README", "read me")
        try a.write("proj/src/main.c", "int main;")
        try FileManager.default.createDirectory(atPath: a.documents + "/keep", withIntermediateDirectories: true)
        a.sync()
        b.sync()
        try FileManager.default.moveItem(atPath: b.documents + "/proj/README", toPath: b.documents + "/" + destination)
        try FileManager.default.removeItem(atPath: b.documents + "/proj")
        b.sync()
        a.sync()
        let listed = try a.engine.deletedItems(container: TestDevice.containerID, under: "").map(\.path)
        #expect(listed.contains("Documents/proj") && !listed.contains("Documents/proj/README"), "\(listed)")

        let result = try a.engine.restore(container: TestDevice.containerID, path: "Documents/proj", version: try Self.folderVersion(a, "proj"))
        #expect(result.items?.sorted() == ["Documents/proj", "Documents/proj/src", "Documents/proj/src/main.c"], "\(result)")
        #expect(a.tree().values.filter { $0 == "read me" }.count == 1, "one README, where it was moved: \(a.tree())")
    }

    /// A folder renamed and renamed back long ago, then deleted, is deleted: the old rename
    /// is not taken for this deletion's.
    @Test func aRenameUndoneLongAgoIsNoSignOfOne() throws {
        let scratch = Scratch()
        let a = try scratch.devices("a")[0]
        a.engine.deletedWithFolderMilliseconds = Self.window
        try a.write("notes/one.txt", "one")
        a.sync()
        try FileManager.default.moveItem(atPath: a.documents + "/notes", toPath: a.documents + "/notes2")
        a.sync()
        try FileManager.default.moveItem(atPath: a.documents + "/notes2", toPath: a.documents + "/notes")
        a.sync()
        Self.waitOutTheWindow()
        try FileManager.default.removeItem(atPath: a.documents + "/notes")
        a.sync()
        #expect(Set(try a.engine.deletedItems(container: TestDevice.containerID, under: "").map(\.path)).isSuperset(of: ["Documents/notes", "Documents/notes/one.txt"]))
        let result = try a.engine.restore(container: TestDevice.containerID, path: "Documents/notes", version: try Self.folderVersion(a, "notes"))
        #expect(result.items == ["Documents/notes", "Documents/notes/one.txt"] && a.read("notes/one.txt") == "one", "\(result)")
    }

    /// Three nested folders deleted one after the other, each a little more than half the
    /// window after the one inside it: each went with the one above it, but the innermost
    /// not with the outermost. Every one is listed, or brought back by restoring one listed
    /// (the innermost was hidden behind its parent, which restoring the outermost brings
    /// back without it). Whatever the passes' pace, that holds.
    @Test func aChainOfDeletionsLeavesEveryFolderReachable() throws {
        let scratch = Scratch()
        let a = try scratch.devices("a")[0]
        a.engine.deletedWithFolderMilliseconds = 300
        try FileManager.default.createDirectory(atPath: a.documents + "/f/a/b", withIntermediateDirectories: true)
        a.sync()
        for folder in ["f/a/b", "f/a", "f"] {
            try FileManager.default.removeItem(atPath: a.documents + "/" + folder)
            a.sync()
            let until = SyncClock.nowMilliseconds() + 180
            while SyncClock.nowMilliseconds() <= until { usleep(1000) }
        }
        let engine = a.engine
        let deleted = engine.deletedItems(in: try #require(engine.container(TestDevice.containerID)), under: "", id: TestDevice.containerID, now: SyncClock.nowMilliseconds())
        let tree = DeletedTree(deleted, window: 300)
        let listed = tree.listed.filter(\.isFolder)
        let reachable = Set(listed.map(\.path) + listed.flatMap { tree.restorable(with: $0).map(\.path) })
        #expect(reachable.isSuperset(of: ["Documents/f", "Documents/f/a", "Documents/f/a/b"]), "listed: \(listed.map(\.path)), reachable: \(reachable)")
    }

    /// One file's content missing from the store (not copied here yet by the replicator
    /// that carries the mirror, say) is one problem: the rest comes back.
    @Test func aFileWhoseContentIsMissingIsNamedAndTheRestComesBack() throws {
        let scratch = Scratch()
        let (a, _) = try Self.projectDeletedOnB(in: scratch)
        let readme = try #require(try a.versions("proj/README").first { $0.kind == "file" }?.sha256)
        try FileManager.default.removeItem(atPath: MirrorLayout(root: a.mirror).object(readme))

        let result = try a.engine.restore(container: TestDevice.containerID, path: "Documents/proj", version: try Self.folderVersion(a, "proj"))

        #expect(result.problems?.count == 1 && result.problems?.first?.hasPrefix("Documents/proj/README: ") == true, "\(result)")
        #expect(a.read("proj/src/main.c") == "int main;" && a.read("proj/README") == nil)
    }

    /// A path that was a folder, then a file, then deleted: its old folder version is no
    /// deleted folder's, and the message says what it was.
    @Test func theFolderVersionOfAPathDeletedAsAFileIsRefusedSayingSo() throws {
        let scratch = Scratch()
        let a = try scratch.devices("a")[0]
        try FileManager.default.createDirectory(atPath: a.documents + "/thing", withIntermediateDirectories: true)
        a.sync()
        try FileManager.default.removeItem(atPath: a.documents + "/thing")
        try a.write("thing", "now a file")
        a.sync()
        try FileManager.default.removeItem(atPath: a.documents + "/thing")
        a.sync()
        let version = try Self.folderVersion(a, "thing")
        let error = #expect(throws: SyncError.self) {
            try a.engine.restore(container: TestDevice.containerID, path: "Documents/thing", version: version)
        }
        #expect(error?.message.hasPrefix("Documents/thing was a file or a link when it was deleted") == true, "\(String(describing: error))")
    }
}
