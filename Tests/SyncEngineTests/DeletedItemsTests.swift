import APIModel
import Foundation
import SyncPlanning
@testable import SyncEngine
import Testing

/// `deletedItems`: what was deleted and can be brought back, found without knowing the
/// path (`ubq deleted`).
@Suite struct DeletedItemsTests {
    static func deleted(_ device: TestDevice, under folder: String = "", now: Int64 = SyncClock.nowMilliseconds()) throws -> [DeletedItemInfo] {
        try device.engine.deletedItems(container: TestDevice.containerID, under: folder, now: now)
    }

    @Test func deletedFilesLinksAndFoldersAreListedWithTheirLastVersionNotRenames() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("notes/a.txt", "first")
        try a.write("notes/renamed.txt", "moves")
        try a.write("other.txt", "other")
        try FileManager.default.createSymbolicLink(atPath: a.documents + "/notes/link", withDestinationPath: "a.txt")
        a.sync()
        try a.write("notes/a.txt", "second")
        a.sync()
        b.sync()
        try FileManager.default.moveItem(atPath: b.documents + "/notes/renamed.txt", toPath: b.documents + "/renamed.txt")
        try FileManager.default.removeItem(atPath: b.documents + "/notes/link")
        try FileManager.default.removeItem(atPath: b.documents + "/notes/a.txt")
        try FileManager.default.removeItem(atPath: b.documents + "/notes")
        b.sync()
        a.sync()

        let all = try Self.deleted(a)
        #expect(Set(all.map(\.path)) == ["Documents/notes", "Documents/notes/a.txt", "Documents/notes/link"], "\(all.map(\.path))")
        #expect(all.first { $0.path == "Documents/notes" }?.lastVersion.kind == "folder")
        let file = try #require(all.first { $0.path == "Documents/notes/a.txt" })
        #expect(file.lastVersion.kind == "file" && file.lastVersion.size == 6, "the last content, \"second\"")
        #expect(file.deletion.device == b.engine.device.id)
        #expect(try Self.deleted(a, under: "Documents/notes").count == 3)
        #expect(try Self.deleted(a, under: "Documents/not").isEmpty, "a folder is a whole name")

        try a.engine.restore(container: TestDevice.containerID, path: file.path, version: try #require(VersionID(file.lastVersion.id)))
        #expect(a.read("notes/a.txt") == "second")
        #expect(try Self.deleted(a).map(\.path) == ["Documents/notes/link"], "restored, with the folder it is in: no longer deleted")
    }

    /// A folder deleted with the folder it was in is not listed: restoring the outer one
    /// brings it back.
    @Test func onlyTheOutermostDeletedFolderIsListed() throws {
        let scratch = Scratch()
        let a = try scratch.devices("a")[0]
        try FileManager.default.createDirectory(atPath: a.documents + "/outer/inner/deepest", withIntermediateDirectories: true)
        a.sync()
        try FileManager.default.removeItem(atPath: a.documents + "/outer")
        a.sync()
        #expect(try Self.deleted(a).map(\.path) == ["Documents/outer"])
        #expect(try Self.deleted(a, under: "Documents/outer/inner").map(\.path) == ["Documents/outer/inner"], "the outermost below the folder asked for")
    }

    @Test func contentTheRetentionNoLongerKeepsIsNotListed() throws {
        let scratch = Scratch()
        let (a, _) = try scratch.pair()
        try a.write("gone.txt", "text")
        a.sync()
        try FileManager.default.removeItem(atPath: a.documents + "/gone.txt")
        a.sync()
        #expect(try Self.deleted(a).map(\.path) == ["Documents/gone.txt"])
        let later = SyncClock.nowMilliseconds() + 31 * 86_400_000
        #expect(try Self.deleted(a, now: later).isEmpty, "kept 30 days")
    }
}
