import APIModel
import DaemonClient
import Foundation
import Testing
import UbiquitySettings

/// A path maps to its container and container-relative path, also where the root is a
/// symbolic link and the path goes through its target.
@Suite struct ItemLocationTests {
    @Test func anItemUnderASymlinkedRootIsFoundByItsPhysicalPath() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-location-\(UUID().uuidString.prefix(8))").path
        let (real, link) = (base + "/real", base + "/Ubiquity")
        try FileManager.default.createDirectory(atPath: real + "/iCloud~org~ubiquity~Tests/Documents", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        defer { try? FileManager.default.removeItem(atPath: base) }
        let settings = Settings(
            root: link, stateDirectory: base + "/state", runtimeDirectory: base + "/run", containerIDs: [try ContainerID("iCloud.org.ubiquity.Tests")])

        let expected = VersionedItem(container: "iCloud.org.ubiquity.Tests", path: "Documents/gone/doc.txt")
        #expect(try VersionedItem(absolutePath: link + "/iCloud~org~ubiquity~Tests/Documents/gone/doc.txt", settings: settings) == expected)
        #expect(try VersionedItem(absolutePath: real + "/iCloud~org~ubiquity~Tests/Documents/gone/doc.txt", settings: settings) == expected,
                "by its physical path, below a folder that does not exist any more")
        #expect(throws: ItemLocationError.self) { try VersionedItem(absolutePath: base + "/elsewhere/doc.txt", settings: settings) }
        #expect(throws: ItemLocationError.self) { try VersionedItem(absolutePath: real + "/iCloud~org~ubiquity~Tests", settings: settings) }
    }
}
