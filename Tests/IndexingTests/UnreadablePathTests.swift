import FileEvents
import Foundation
import Glibc
import RawPaths
import Testing

@testable import Indexing

/// An item whose status cannot be read costs only its own row: the other changes of the
/// same batch are indexed. (Tests run as root here, where a folder without permissions is
/// still searchable; a path past PATH_MAX below its container fails the same way, with
/// ENAMETOOLONG. One past PATH_MAX only with the folders above the container is read:
/// `ContainerLayout.reachable`.)
@Suite struct UnreadablePathTests {
    @Test func aPathThatCannotBeReadDoesNotCostTheRestOfItsBatch() throws {
        let tree = try DeferredContentIndexingTests.Tree()
        try tree.indexer.reconcileEverything()
        let deep = try Self.makeFoldersPastPathMax(in: tree.documents)
        try tree.write("note.txt", Array("hello".utf8))
        let documents = RawPath("iCloud~org~ubiquity~Default/Documents")
        try tree.indexer.apply([.look(documents.appending(deep)), .look(documents.appending(RawPath("note.txt")))])
        #expect(try tree.names("kMDItemFSName == 'note.txt'") == ["note.txt"])
        #expect(tree.messages.texts(at: .warning).contains { $0.contains("not indexed") && $0.contains("statx") }, "\(tree.messages.texts(at: .warning))")
    }

    /// Folders nested below `folder` until their path below it, less the last name, is
    /// longer than PATH_MAX, made through descriptors (no call could take the whole path);
    /// returns that path.
    static func makeFoldersPastPathMax(in folder: String) throws -> RawPath {
        let name = String(repeating: "d", count: 250)
        var fd = open(folder, O_RDONLY | O_DIRECTORY)
        var relative = RawPath()
        // Its folder's path too, or the status is read from there.
        while relative.bytes.count - name.utf8.count <= Int(PATH_MAX) {
            guard mkdirat(fd, name, 0o755) == 0 else { throw POSIXError(.EIO) }
            let next = openat(fd, name, O_RDONLY | O_DIRECTORY)
            close(fd)
            fd = next
            relative = relative.appending(RawPath(name))
        }
        close(fd)
        return relative
    }
}
