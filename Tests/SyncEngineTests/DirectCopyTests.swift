import Foundation
import Glibc
import Testing

@testable import SyncEngine

/// `DirectCopy`: a large file's early copy written past the page cache.
@Suite struct DirectCopyTests {
    /// Whole pieces; a piece, a block and a tail; less than a block.
    static let sizes = [2 * DirectCopy.piece, DirectCopy.piece + DirectCopy.block + 123, 100]

    /// Copies a file of `size` random bytes with `DirectCopy`: the source's bytes, what it
    /// returned, and the copy's descriptor (open; the caller closes it) and path.
    func copy(size: Int, in scratch: Scratch) throws -> (bytes: Data, copied: Int64?, copy: Int32, path: String, source: Int32) {
        let bytes = try EarlyCopyTests.randomBytes(size)
        try bytes.write(to: URL(fileURLWithPath: scratch.path + "/source"))
        let source = open(scratch.path + "/source", O_RDONLY)
        let path = scratch.path + "/copy"
        let copy = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        try #require(source >= 0 && copy >= 0)
        let copied = try DirectCopy.copy(from: source, to: copy, path: "source", destinationPath: path)
        return (bytes, copied, copy, path, source)
    }

    @Test(arguments: sizes) func theCopyHoldsTheSourcesBytes(size: Int) throws {
        let scratch = Scratch()
        let (bytes, copied, copy, path, source) = try copy(size: size, in: scratch)
        defer {
            close(copy)
            close(source)
        }
        guard let copied else {
            // No direct I/O on this filesystem (tmpfs): nothing written, the source unread.
            #expect(FileManager.default.contents(atPath: path) == Data())
            #expect(lseek(source, 0, SEEK_CUR) == 0)
            return
        }
        #expect(copied == Int64(size))
        #expect(FileManager.default.contents(atPath: path) == bytes)
    }

    /// Whether the scratch folder's filesystem takes direct writes (tmpfs does not): where
    /// it does not, the test of the page cache is reported skipped, not passed.
    static let scratchTakesDirectWrites: Bool = {
        let scratch = Scratch()
        guard let probe = try? DirectCopyTests().copy(size: DirectCopy.block, in: scratch) else { return false }
        close(probe.copy)
        close(probe.source)
        return probe.copied != nil
    }()

    /// What the copy is for: the disk takes the data from the copy's buffer, and the copy
    /// leaves no pages of its own in memory (a first sync's GiB would evict the user's).
    @Test(.enabled(if: scratchTakesDirectWrites, "the scratch folder's filesystem takes no direct writes"))
    func theCopyLeavesItsWholeBlocksOutOfThePageCache() throws {
        let scratch = Scratch()
        let size = 4 * DirectCopy.piece
        let (_, copied, copy, path, source) = try copy(size: size, in: scratch)
        close(copy)
        close(source)
        #expect(copied == Int64(size))
        #expect(try Self.residentPages(path) == 0, "of \(size / 4096)")
    }

    /// How many of the file's pages are in the page cache (mincore(2) of a mapping of it).
    static func residentPages(_ path: String) throws -> Int {
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        var info = stat()
        try #require(fstat(fd, &info) == 0)
        let size = Int(info.st_size)
        let mapping = try #require(mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0))
        try #require(mapping != MAP_FAILED)
        defer { munmap(mapping, size) }
        var vector = [UInt8](repeating: 0, count: (size + 4095) / 4096)
        try #require(mincore(mapping, size, &vector) == 0)
        return vector.count { $0 & 1 == 1 }
    }
}
