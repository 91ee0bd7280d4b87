import Foundation
@testable import SyncEngine
import Testing

/// Names as the mirror keys them: a name typed on a Mac arrives in NFD, one typed on Linux
/// in NFC; they are one item, which each device keeps under the bytes it has. A rename
/// that changes only the case is a rename (Linux filesystems tell the cases apart).
@Suite("Names: NFC and NFD, and case-only renames")
struct NameFormTests {
    static let nfd = "cafe\u{301}.txt"  // "e" then a combining acute accent
    static let nfc = "caf\u{E9}.txt"

    @Test func aNameInNFDAndTheSameInNFCAreOneItem() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        #expect(Array(Self.nfd.utf8) != Array(Self.nfc.utf8))
        try a.write(Self.nfd, "from a")
        a.sync()
        b.sync()
        #expect(Self.names(in: b.documents) == [Array(Self.nfc.utf8)], "the mirror's name is NFC")

        try b.write(Self.nfc, "edited on b")
        b.sync()
        let report = a.sync()

        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(Self.names(in: a.documents) == [Array(Self.nfd.utf8)], "a keeps its own bytes, and one file")
        #expect(a.read(Self.nfd) == "edited on b")
    }

    @Test func bothFormsSideBySideAreReportedAndNeitherIsLost() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write(Self.nfd, "decomposed")
        try a.write(Self.nfc, "composed")
        let report = a.sync()
        b.sync()

        #expect(report.problems.contains { $0.contains("same name in NFC and NFD") }, "\(report.problems)")
        #expect(a.read(Self.nfd) == "decomposed" && a.read(Self.nfc) == "composed")
        #expect(b.tree().values.allSatisfy { $0 == "decomposed" || $0 == "composed" }, "\(b.tree())")
    }

    @Test func aCaseOnlyRenameIsARename() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("notes.txt", "text")
        a.sync()
        b.sync()
        let inode = try Self.inode(b.documents + "/notes.txt")
        try FileManager.default.moveItem(atPath: a.documents + "/notes.txt", toPath: a.documents + "/Notes.txt")
        a.sync()
        let report = b.sync()

        #expect(b.tree() == ["Notes.txt": "text"])
        #expect(report.published == 0 && report.problems.isEmpty, "\(report)")
        #expect(try Self.inode(b.documents + "/Notes.txt") == inode, "b renamed its file, rather than fetch a new one")
    }

    private static func inode(_ path: String) throws -> UInt64 {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? UInt64)
    }

    /// The names in `folder`, as bytes.
    private static func names(in folder: String) -> [[UInt8]] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [[UInt8]] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != Array(".".utf8) && name != Array("..".utf8) { names.append(name) }
        }
        return names
    }
}
