import Foundation
import RawPaths
import Testing

@testable import SyncEngine

/// What a container's `.ubqignore` names stays on its device, whatever else the file holds.
@Suite struct IgnoreFileSyncTests {
    @Test func anIgnoredFileStaysHereThoughAnotherLineIsNotUTF8() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        let ignoreFile = Array("secret.txt\ncaf".utf8) + [0xE9] + Array(".log\n".utf8)  // a Latin-1 line
        try Data(ignoreFile).write(to: URL(fileURLWithPath: a.root + "/" + TestDevice.containerID.folderName + "/.ubqignore"))
        try a.write("secret.txt", "pin 1234")
        try a.write("notes.txt", "shared")
        a.sync()
        b.sync()

        #expect(b.read("notes.txt") == "shared")
        #expect(b.read("secret.txt") == nil, "\(b.tree())")
    }

    /// A folder deleted on another device that still holds files this device does not sync
    /// (an editor's swap file here): they stay, so the folder does, and each pass says why
    /// and what to do, instead of keeping it without a word.
    @Test func aFolderDeletedElsewhereKeepsWhatIsNotSyncedAndSaysSo() throws {
        let scratch = Scratch()
        let b = try Self.notesDeletedElsewhere(scratch)
        let report = b.sync()
        let again = b.sync()

        #expect(b.tree() == ["notes": "<folder>", "notes/.todo.txt.swp": "vim's swap file"])
        for problems in [report.problems, again.problems] {
            #expect(problems.contains { $0.contains("notes was deleted on another device") && $0.contains(".todo.txt.swp") }, "\(problems)")
        }
    }

    /// Once vim removes its swap file, the pass over that change (what ubqd runs, not one
    /// over everything) takes the kept folder along: it waited for the next pass over
    /// everything before.
    @Test func aKeptFolderGoesWithTheLastThingInIt() throws {
        let scratch = Scratch()
        let b = try Self.notesDeletedElsewhere(scratch, besides: ["other.txt": "other"])
        b.sync(changed: [])
        try #require(b.tree()["notes"] == "<folder>", "kept while the swap file is there")
        try FileManager.default.removeItem(atPath: b.documents + "/notes/.todo.txt.swp")
        let report = b.sync(changed: [RawPath("Documents/notes/.todo.txt.swp")])
        #expect(b.tree() == ["other.txt": "other"], "\(report.problems)")
    }

    /// Device b, where vim has a swap file in `notes`, which device a deleted (with
    /// `todo.txt`, synced to b) and published; b has not synced since.
    private static func notesDeletedElsewhere(_ scratch: Scratch, besides files: [String: String] = [:]) throws -> TestDevice {
        let (a, b) = try scratch.pair()
        for (path, text) in files.merging(["notes/todo.txt": "todo"]) { $1 } { try a.write(path, text) }
        a.sync()
        b.sync()
        try b.write("notes/.todo.txt.swp", "vim's swap file")
        try FileManager.default.removeItem(atPath: a.documents + "/notes")
        a.sync(settled: true)
        return b
    }
}
