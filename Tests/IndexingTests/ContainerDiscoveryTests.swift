import Foundation
import Glibc
import RawPaths
import Testing

@testable import Indexing

/// Which entries of the root are container folders: folders named for a container id;
/// a link with such a name is set apart (never followed out of the root).
@Suite struct ContainerDiscoveryTests {
    @Test func foldersAreContainersAndLinksAreSetApart() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-discovery-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        for folder in ["iCloud~com~example~Notes", "Documents"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        try FileManager.default.createSymbolicLink(atPath: root + "/iCloud~com~example~Linked", withDestinationPath: "/tmp")
        FileManager.default.createFile(atPath: root + "/iCloud~com~example~File", contents: Data())

        #expect(ContainerDiscovery.containers(in: RawPath(root)).map(\.identifier) == ["iCloud.com.example.Notes"])
        #expect(ContainerDiscovery.linkedFolderNames(in: RawPath(root)) == ["iCloud~com~example~Linked"])

        // A filesystem that leaves an entry's type unknown (DT_UNKNOWN) is asked with lstat.
        var unknown = dirent()
        unknown.d_type = UInt8(DT_UNKNOWN)
        #expect(ContainerDiscovery.type(of: &unknown, at: RawPath(root + "/iCloud~com~example~Notes")) == DT_DIR)
        #expect(ContainerDiscovery.type(of: &unknown, at: RawPath(root + "/iCloud~com~example~Linked")) == DT_LNK)
        #expect(ContainerDiscovery.type(of: &unknown, at: RawPath(root + "/iCloud~com~example~File")) == DT_UNKNOWN)
    }
}
