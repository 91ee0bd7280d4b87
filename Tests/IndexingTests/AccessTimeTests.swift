import ContentTypes
import Foundation
import Logging
import RawPaths
import TestSupport
import Testing

@testable import Indexing

/// Indexing reads a file's first bytes to tell its type; that is not the user using the
/// file, so its access time stays as it was (a plain read would set it: relatime, the
/// access time older than the change).
@Suite struct AccessTimeTests {
    @Test func readingAPrefixLeavesTheAccessTime() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-atime-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["plain.txt", "indexed.txt"] {
            try Data("some text".utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
            #expect(AccessTime.makeStale(folder + "/" + name))
        }
        _ = try Data(contentsOf: URL(fileURLWithPath: folder + "/plain.txt"))
        try #require(AccessTime.seconds(folder + "/plain.txt") != AccessTime.stale, "a plain read sets the access time here (not a noatime mount)")

        let inspector = ItemInspector(detector: try ContentTypeDetector(), logger: Logger(label: "test"))
        let prefix = try inspector.readPrefix(RawPath("indexed.txt"), beneath: RawPath(folder), count: 4).get()
        #expect(prefix == Array("some".utf8))
        #expect(AccessTime.seconds(folder + "/indexed.txt") == AccessTime.stale)
    }
}
