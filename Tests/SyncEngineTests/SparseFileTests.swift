import Foundation
import Glibc
@testable import SyncEngine
import Testing

/// A file with holes (a disk image, a preallocated database) keeps them through the store
/// and on the other device: it takes there about the room its data takes.
@Suite struct SparseFileTests {
    static let size: Int64 = 64 << 20

    @Test func aFileWithHolesArrivesWithItsHoles() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        let path = a.documents + "/disk.img"
        try makeSparse(path, data: [(0, "header"), (20 << 20, "middle"), (Self.size - 3, "end")])
        a.sync(settled: true)
        let report = b.sync()

        let arrived = b.documents + "/disk.img"
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(FileManager.default.contents(atPath: arrived) == FileManager.default.contents(atPath: path))
        let objects = try FileManager.default.subpathsOfDirectory(atPath: MirrorLayout(root: a.mirror).objects).filter { $0.count > 60 }
        for file in [arrived] + objects.map({ MirrorLayout(root: a.mirror).objects + "/" + $0 }) {
            let info = try #require(Sys.lstat(file))
            #expect(Int64(info.st_size) == Self.size, "\(file)")
            #expect(Int64(info.st_blocks) * 512 <= 1 << 20, "\(file) takes \(Int64(info.st_blocks) * 512) bytes")
        }
    }

    /// Chunks that start and end anywhere in a block: only whole blocks of zeros are left
    /// out, and the copy reads back as the source.
    @Test(arguments: [1, 4095, 4096, 5000, 1 << 20])
    func aCopyWithHolesReadsBackAsItsSource(chunk: Int) throws {
        let scratch = Scratch()
        var bytes = [UInt8](repeating: 0, count: 50_000)
        for offset in [0, 4095, 4096, 12_288, 30_001, 49_999] { bytes[offset] = 7 }
        let path = scratch.path + "/copy"
        let fd = open(path, O_WRONLY | O_CREAT, 0o644)
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + chunk)
            try bytes[offset..<end].withUnsafeBytes { try SparseFiles.write(fd, $0, at: Int64(offset), path: path) }
            offset = end
        }
        try SparseFiles.finish(fd, size: Int64(bytes.count), path: path)
        #expect(FileManager.default.contents(atPath: path).map(Array.init) == bytes)
    }

    private func makeSparse(_ path: String, data: [(Int64, String)]) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(fd >= 0)
        defer { close(fd) }
        #expect(ftruncate(fd, off_t(Self.size)) == 0)
        for (offset, text) in data {
            #expect(text.withCString { pwrite(fd, $0, strlen($0), off_t(offset)) } == text.utf8.count)
        }
    }
}
