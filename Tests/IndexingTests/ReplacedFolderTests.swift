import ContentTypes
import FileEvents
import MetadataIndex
import Foundation
import RawPaths
import Testing

@testable import Indexing

/// A folder replaced, between two looks, by a file or by a symlink: the index must show
/// what is there now, nothing that was below the folder, and nothing the link points at.
@Suite struct ReplacedFolderTests {
    static let documents = RawPath("iCloud~org~ubiquity~Default/Documents")

    @Test func aFolderReplacedByAFileTakesItsRowsAlong() throws {
        let tree = try DeferredContentIndexingTests.Tree()
        try FileManager.default.createDirectory(atPath: tree.documents + "/proj", withIntermediateDirectories: true)
        try tree.write("proj/a.txt", Array("a".utf8))
        try tree.write("proj/b.txt", Array("b".utf8))
        try tree.indexer.reconcileEverything()
        #expect(try tree.names("kMDItemFSName LIKE '*.txt'") == ["a.txt", "b.txt"])

        try FileManager.default.removeItem(atPath: tree.documents + "/proj")  // as `mv proj /tmp/` would
        try tree.write("proj", Array("now a file".utf8))
        try tree.indexer.apply([.look(Self.documents.appending("proj"))])
        #expect(try tree.names("kMDItemFSName LIKE '*.txt'") == [])
        #expect(try tree.names("kMDItemFSName == 'proj' AND kMDItemFSSize == 10") == ["proj"])
    }

    @Test func aFolderReplacedByALinkShowsNothingOfWhereItPoints() throws {
        let tree = try DeferredContentIndexingTests.Tree()
        try Self.folderAndOutside(tree, holding: "hosts.txt")
        try tree.indexer.reconcileEverything()

        try Self.swapFolderForLinkOut(tree)
        // The removal of d/hosts.txt settles first, as a look at the path.
        try tree.indexer.apply([.look(Self.documents.appending("d/hosts.txt"))])
        #expect(try tree.names("kMDItemFSName == 'hosts.txt'") == [], "the row went: nothing is at d/hosts.txt inside the container")
        #expect(try tree.names("kMDItemTextContent CONTAINS 'secret'") == [])
        try tree.indexer.apply([.look(Self.documents.appending("d"))])
        #expect(try tree.names("kMDItemFSName == 'hosts.txt'") == [])
        #expect(try tree.names("kMDItemFSName == 'd'") == ["d"])
    }

    /// The race behind the test above, made certain: the folder is swapped for a link after
    /// the file's status was read and before its content is. The read must not go through
    /// the link.
    @Test func aFolderSwappedForALinkBeforeTheReadIsNotFollowed() throws {
        let tree = try DeferredContentIndexingTests.Tree()
        try Self.folderAndOutside(tree, holding: "notes.txt")
        let item = try Self.snapshotAfterSwap(tree, of: "notes.txt")
        #expect(item.textContent == nil, "read through the link: \(item.textContent ?? "")")
        #expect(item.readError?.contains("open") == true)
    }

    @Test func aLinksTextIsNotReadThroughAFolderSwappedForALink() throws {
        let tree = try DeferredContentIndexingTests.Tree()
        try Self.folderAndOutside(tree, holding: "other.txt")
        try FileManager.default.createSymbolicLink(atPath: tree.documents + "/d/link", withDestinationPath: "mine")
        try FileManager.default.createSymbolicLink(atPath: tree.root + "/outside/link", withDestinationPath: "secret")
        let item = try Self.snapshotAfterSwap(tree, of: "link")
        #expect(item.symlinkTarget == nil, "read through the link: \(item.symlinkTarget.map { String(decoding: $0, as: UTF8.self) } ?? "")")
    }

    /// The snapshot of `Documents/d/<name>` made with the status read before `d` was
    /// swapped for a link out (`swapFolderForLinkOut`), as a scan may meet it.
    private static func snapshotAfterSwap(_ tree: DeferredContentIndexingTests.Tree, of name: String) throws -> ItemSnapshot {
        let container = RawPath(tree.root + "/iCloud~org~ubiquity~Default")
        let relative = RawPath("Documents/d/" + name)
        let status = try #require(try FileStatus.read(relative, beneath: container))
        try swapFolderForLinkOut(tree)
        let inspector = ItemInspector(detector: try ContentTypeDetector(), logger: tree.logger)
        return try #require(inspector.snapshot(container: "c", displayName: "C", folder: container, relativePath: relative, status: status))
    }

    /// `Documents/d/<name>` holding "mine" in the container, and `outside/<name>` holding
    /// "secret" beside it (outside the container).
    private static func folderAndOutside(_ tree: DeferredContentIndexingTests.Tree, holding name: String) throws {
        try FileManager.default.createDirectory(atPath: tree.root + "/outside", withIntermediateDirectories: true)
        try Data("secret".utf8).write(to: URL(fileURLWithPath: tree.root + "/outside/" + name))
        try FileManager.default.createDirectory(atPath: tree.documents + "/d", withIntermediateDirectories: true)
        try tree.write("d/" + name, Array("mine".utf8))
    }

    /// Replaces `Documents/d` by a link to `outside`, as another program may at any moment.
    private static func swapFolderForLinkOut(_ tree: DeferredContentIndexingTests.Tree) throws {
        try FileManager.default.removeItem(atPath: tree.documents + "/d")
        try FileManager.default.createSymbolicLink(atPath: tree.documents + "/d", withDestinationPath: tree.root + "/outside")
    }
}
