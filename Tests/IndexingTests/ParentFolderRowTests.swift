import FileEvents
import Foundation
import MetadataIndex
import RawPaths
import Testing

@testable import Indexing

/// Making, moving or removing an entry changes its folder's modification time (and, on
/// tmpfs, its size), and inotify names only the entry. The folder's row must follow for
/// every kind of settled change, not only for looks at files.
@Suite struct ParentFolderRowTests {
    static let documents = RawPath("iCloud~org~ubiquity~Default/Documents")

    func expectFolderRowMatchesDisk(_ tree: DeferredContentIndexingTests.Tree, _ folder: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let indexed = try tree.index.signatures(container: "iCloud.org.ubiquity.Default", under: RawPath("Documents/" + folder))
        let onDisk = try #require(try FileStatus.read(RawPath(tree.documents + "/" + folder)))
        #expect(indexed[RawPath("Documents/" + folder)] == onDisk.signature, "\(folder)", sourceLocation: sourceLocation)
    }

    /// A new folder settles as a rescan of it.
    @Test func aFolderMadeInsideUpdatesItsParentsRow() throws {
        let tree = try DeferredContentIndexingTests.Tree()
        try FileManager.default.createDirectory(atPath: tree.documents + "/x", withIntermediateDirectories: true)
        try tree.indexer.reconcileEverything()
        try FileManager.default.createDirectory(atPath: tree.documents + "/x/y", withIntermediateDirectories: true)
        try tree.indexer.apply([.rescan(Self.documents.appending("x/y"))])
        try expectFolderRowMatchesDisk(tree, "x")
        try expectFolderRowMatchesDisk(tree, "x/y")
    }

    /// A rename settles as a move: both folders changed.
    @Test func aMoveUpdatesTheRowsOfBothFolders() throws {
        let tree = try DeferredContentIndexingTests.Tree()
        for folder in ["from/sub", "to"] {
            try FileManager.default.createDirectory(atPath: tree.documents + "/" + folder, withIntermediateDirectories: true)
        }
        try tree.indexer.reconcileEverything()
        try FileManager.default.moveItem(atPath: tree.documents + "/from/sub", toPath: tree.documents + "/to/sub")
        try tree.indexer.apply([.moved(from: Self.documents.appending("from/sub"), to: Self.documents.appending("to/sub"))])
        try expectFolderRowMatchesDisk(tree, "from")
        try expectFolderRowMatchesDisk(tree, "to")
        try expectFolderRowMatchesDisk(tree, "to/sub")
    }
}
