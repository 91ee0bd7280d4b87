import CStatx
import Foundation
import RawPaths
import Testing

@testable import Watching

/// The watcher skips listing a folder whose link count says it has no subfolder; a wrong
/// answer leaves subfolders unwatched (`WalkAlongsideScanTests` then misses probes), so
/// the rule answers "leaf" only when it is sure.
@Suite struct LeafFoldersTests {
    @Test func onlyAFolderOnTheTrustedDeviceWithTwoLinksIsALeaf() {
        let folder = UInt32(S_IFDIR) | 0o755
        #expect(LeafFolders.isLeaf(mode: folder, device: 7, linkCount: 2, trustedDevice: 7))
        #expect(!LeafFolders.isLeaf(mode: folder, device: 7, linkCount: 3, trustedDevice: 7))  // one subfolder
        #expect(!LeafFolders.isLeaf(mode: folder, device: 7, linkCount: 1, trustedDevice: 7))  // count not kept
        #expect(!LeafFolders.isLeaf(mode: folder, device: 8, linkCount: 2, trustedDevice: 7))  // a mount inside
        #expect(!LeafFolders.isLeaf(mode: UInt32(S_IFREG) | 0o644, device: 7, linkCount: 2, trustedDevice: 7))
    }

    /// On the test machine's own filesystem: where it counts subfolders (ext4, XFS, tmpfs),
    /// empty and file-only folders are leaves and a folder with a subfolder is not; where
    /// it does not, no folder is taken for a leaf.
    @Test func foldersOnDisk() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-leaf-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        for folder in ["parent/child", "empty", "files"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        FileManager.default.createFile(atPath: root + "/files/a.txt", contents: Data())
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: "empty")
        let leaves = LeafFolders(root: RawPath(root))
        let counts = LeafFolders.countingFilesystems.contains(root.withCString { ubq_filesystem_type($0) })
        let path = { RawPath(root + "/" + $0) }
        #expect(leaves.holdsNoSubfolder(path("empty")) == counts)
        #expect(leaves.holdsNoSubfolder(path("files")) == counts)
        #expect(leaves.holdsNoSubfolder(path("parent/child")) == counts)
        #expect(!leaves.holdsNoSubfolder(path("parent")))
        #expect(!leaves.holdsNoSubfolder(RawPath(root)))
        #expect(!leaves.holdsNoSubfolder(path("link")))  // not followed: a symlink is no folder
        #expect(!leaves.holdsNoSubfolder(path("missing")))
    }
}
