import ContentTypes
import Foundation
import Glibc
import Logging
import RawPaths
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
        let old = timespec(tv_sec: 1_000_000_000, tv_nsec: 0)
        for name in ["plain.txt", "indexed.txt"] {
            try Data("some text".utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
            var times = [old, timespec(tv_sec: time(nil), tv_nsec: 0)]
            #expect(utimensat(AT_FDCWD, folder + "/" + name, &times, 0) == 0)
        }
        _ = try Data(contentsOf: URL(fileURLWithPath: folder + "/plain.txt"))
        try #require(accessSeconds(folder + "/plain.txt") != old.tv_sec, "a plain read sets the access time here (not a noatime mount)")

        let inspector = ItemInspector(detector: try ContentTypeDetector(), logger: Logger(label: "test"))
        let prefix = try inspector.readPrefix(RawPath("indexed.txt"), beneath: RawPath(folder), count: 4).get()
        #expect(prefix == Array("some".utf8))
        #expect(accessSeconds(folder + "/indexed.txt") == old.tv_sec)
    }

    private func accessSeconds(_ path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_atim.tv_sec : nil
    }
}
