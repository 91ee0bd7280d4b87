import Foundation
import RawPaths
import SyncPlanning
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

    /// A folder this device holds in NFD (a Mac named it) takes what another device adds to
    /// it, and a restore or a resolution writes the file this device holds in NFD: never a
    /// twin named in NFC beside them, which would leave both out of sync.
    static let nfdFolder = "cafe\u{301}"
    static let nfcFolder = "caf\u{E9}"

    /// Device a, holding `nfdFolder/x.txt`, before its pass that meets b's new
    /// `nfcFolder/y.txt`.
    private static func holdingTheNFDFolder(whileAnotherAddsToIt scratch: Scratch) throws -> TestDevice {
        let (a, b) = try scratch.pair()
        try a.write(nfdFolder + "/x.txt", "x")
        a.sync()
        b.sync()
        try b.write(nfcFolder + "/y.txt", "y")
        b.sync()
        return a
    }

    @Test func aNewFileFromAnotherDeviceGoesIntoTheFolderInTheFormThisDeviceHasIt() throws {
        let scratch = Scratch()
        let a = try Self.holdingTheNFDFolder(whileAnotherAddsToIt: scratch)
        let applied = a.sync()

        #expect(applied.problems.isEmpty, "\(applied.problems)")
        #expect(Self.names(in: a.documents) == [Array(Self.nfdFolder.utf8)], "one folder, in a's own form")
        #expect(a.read(Self.nfdFolder + "/y.txt") == "y")
        #expect(a.sync().problems.isEmpty)
    }

    @Test func aScopedPassPutsANewFileIntoTheFolderInTheFormThisDeviceHasIt() throws {
        let scratch = Scratch()
        let a = try Self.holdingTheNFDFolder(whileAnotherAddsToIt: scratch)
        let applied = a.sync(changed: [])  // the pass looks only at what the mirror changed

        #expect(applied.applied == 1 && applied.problems.isEmpty, "\(applied)")
        #expect(Self.names(in: a.documents) == [Array(Self.nfdFolder.utf8)], "one folder, in a's own form")
    }

    @Test func aRestoreWritesTheFileInTheFormThisDeviceHasIt() throws {
        let scratch = Scratch()
        let (a, _) = try scratch.pair()
        try a.write(Self.nfd, "first")
        a.sync()
        try a.write(Self.nfd, "second")
        a.sync()
        let first = try #require(try a.engine.versions(container: TestDevice.containerID, path: "Documents/" + Self.nfc).last)
        try a.engine.restore(container: TestDevice.containerID, path: "Documents/" + Self.nfc, version: try #require(VersionID(first.id)))

        #expect(a.read(Self.nfd) == "first")
        #expect(Self.names(in: a.documents) == [Array(Self.nfd.utf8)])
    }

    /// A name may start with a combining mark. Swift's `String` makes "/" and the mark one
    /// `Character`, so a path split, searched or prefixed by characters misses that slash:
    /// the item's folder must be found in its bytes.
    static let combining = ["\u{301}top.txt", "docs/\u{301}note.txt", "\u{301}dir/inner.txt", "\u{301}dir/\u{308}deeper/leaf.txt"]

    @Test func namesThatStartWithACombiningMarkSyncLikeAnyOther() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        for (index, name) in Self.combining.enumerated() { try Self.write(name, "text \(index)", in: a.documents) }
        let published = a.sync()
        let applied = b.sync()

        #expect(published.problems.isEmpty && applied.problems.isEmpty, "\(published.problems) \(applied.problems)")
        #expect(Self.items(below: b.documents) == Self.items(below: a.documents))
        #expect(Self.items(below: a.documents).count == Self.combining.count + 3, "\(Self.items(below: a.documents))")

        try Self.write(Self.combining[1], "edited on b", in: b.documents)
        #expect(unlink(b.documents + "/" + Self.combining[3]) == 0)
        b.sync()
        let back = a.sync()

        #expect(back.problems.isEmpty, "\(back.problems)")
        #expect(Self.items(below: a.documents)[Self.combining[1]] == "edited on b")
        #expect(Self.items(below: a.documents)[Self.combining[3]] == nil)
        #expect(Self.items(below: a.documents) == Self.items(below: b.documents))
    }

    @Test func aScopedPassOverAFolderTakesTheNamesInItThatStartWithACombiningMark() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try Self.write(Self.combining[1], "note", in: a.documents)
        a.sync()
        b.sync()
        #expect(Self.items(below: b.documents)[Self.combining[1]] == "note")

        try FileManager.default.removeItem(atPath: a.documents + "/docs")
        let deleted = a.sync(changed: [RawPath("Documents/docs")])
        b.sync()

        #expect(deleted.problems.isEmpty, "\(deleted.problems)")
        #expect(Self.items(below: a.documents).isEmpty)
        #expect(Self.items(below: b.documents).isEmpty, "\(Self.items(below: b.documents))")
    }

    /// Writes `text` to `relative` below `folder`, making its folders: by bytes, since
    /// Foundation's path functions split such names by characters too.
    private static func write(_ relative: String, _ text: String, in folder: String) throws {
        var made = folder
        for component in relative.utf8.split(separator: UInt8(ascii: "/")).dropLast() {
            made += "/" + String(decoding: component, as: UTF8.self)
            if mkdir(made, 0o755) != 0 && errno != EEXIST { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + relative))
    }

    /// Every item below `folder` by its path's bytes read as UTF-8: file text, or "<folder>".
    private static func items(below folder: String, prefix: String = "") -> [String: String] {
        var items: [String: String] = [:]
        for name in names(in: folder + (prefix.isEmpty ? "" : "/" + prefix)) {
            let relative = (prefix.isEmpty ? "" : prefix + "/") + String(decoding: name, as: UTF8.self)
            var info = stat()
            guard lstat(folder + "/" + relative, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR {
                items[relative] = "<folder>"
                items.merge(Self.items(below: folder, prefix: relative)) { first, _ in first }
            } else {
                items[relative] = FileManager.default.contents(atPath: folder + "/" + relative).map { String(decoding: $0, as: UTF8.self) } ?? "?"
            }
        }
        return items
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
