import Foundation
import Glibc
import Testing

@testable import SyncEngine

/// When a batch is made durable with one `syncfs` rather than an fsync a file.
@Suite struct BatchDurabilityTests {
    static let ext4 = 0xEF53
    static let nfs = 0x6969
    static let mebibyte: Int64 = 1 << 20

    @Test func aLocalFilesystemWithLittleElseDirtyTakesOneSyncfs() {
        let batch = BatchDurability.footprint(of: [300, 300])
        #expect(BatchDurability.prefersWholeFilesystem(filesystem: Self.ext4, dirtyBytes: 0, batchBytes: batch))
        #expect(BatchDurability.prefersWholeFilesystem(filesystem: Self.ext4, dirtyBytes: 16 * batch + Self.mebibyte, batchBytes: batch))
    }

    @Test func muchElseDirtyTakesAnFsyncAFile() {
        let batch = BatchDurability.footprint(of: [300, 300])
        #expect(!BatchDurability.prefersWholeFilesystem(filesystem: Self.ext4, dirtyBytes: 16 * batch + Self.mebibyte + 1, batchBytes: batch))
        // A large batch may have more beside it: what counts is the share.
        let large = BatchDurability.footprint(of: Array(repeating: 1 << 20, count: 100))
        #expect(BatchDurability.prefersWholeFilesystem(filesystem: Self.ext4, dirtyBytes: 1 << 30, batchBytes: large))
    }

    /// A first sync whose scan copied every small file early: all of them are dirty before
    /// the first batch, and the batches to come will sync them anyway.
    @Test func thePassesOwnPendingCopiesCountWithTheBatch() {
        let batch = BatchDurability.footprint(of: Array(repeating: 300, count: 4096))
        let pending = BatchDurability.footprint(of: Array(repeating: 300, count: 95_904))
        let dirty = batch + pending
        #expect(!BatchDurability.prefersWholeFilesystem(filesystem: Self.ext4, dirtyBytes: dirty, batchBytes: batch))
        #expect(BatchDurability.prefersWholeFilesystem(filesystem: Self.ext4, dirtyBytes: dirty, batchBytes: batch, pendingBytes: pending))
        // Beside as much again of other dirty data, still the pass's share decides.
        #expect(BatchDurability.prefersWholeFilesystem(filesystem: Self.ext4, dirtyBytes: 2 * dirty, batchBytes: batch, pendingBytes: pending))
        #expect(!BatchDurability.prefersWholeFilesystem(filesystem: Self.nfs, dirtyBytes: dirty, batchBytes: batch, pendingBytes: pending))
    }

    @Test func aNetworkOrUnknownFilesystemOrUnreadableMemoryTakesAnFsyncAFile() {
        #expect(!BatchDurability.prefersWholeFilesystem(filesystem: Self.nfs, dirtyBytes: 0, batchBytes: Self.mebibyte))
        #expect(!BatchDurability.prefersWholeFilesystem(filesystem: 0, dirtyBytes: 0, batchBytes: Self.mebibyte))
        #expect(!BatchDurability.prefersWholeFilesystem(filesystem: Self.ext4, dirtyBytes: nil, batchBytes: Self.mebibyte))
    }

    /// A folder of the batch on another filesystem (a mount inside a container, here the
    /// machine's /dev/shm beside the scratch folder) is not covered by the anchor's `syncfs`.
    @Test(.enabled(if: Self.shmIsAnotherFilesystem)) func foldersOnAnotherFilesystemAreFsyncedOneByOne() throws {
        let scratch = Scratch()
        let elsewhere = "/dev/shm/ubq-durability-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: elsewhere) }
        let durability = BatchDurability(anchor: scratch.path, wholeFilesystem: true)
        #expect(durability.syncsWhole([scratch.path]))
        #expect(!durability.syncsWhole([scratch.path, elsewhere]))
        #expect(!BatchDurability(anchor: scratch.path, wholeFilesystem: false).syncsWhole([scratch.path]))
        try "x".write(toFile: elsewhere + "/f", atomically: false, encoding: .utf8)
        try durability.syncFiles([elsewhere + "/f"])  // taken file by file: no error either way
    }

    static var shmIsAnotherFilesystem: Bool {
        guard let shm = Sys.lstat("/dev/shm"), let temporary = Sys.lstat(NSTemporaryDirectory()) else { return false }
        return shm.st_dev != temporary.st_dev
    }

    @Test func theFootprintCountsWholePagesAndAPageOfMetadataAFile() {
        #expect(BatchDurability.footprint(of: []) == 0)
        #expect(BatchDurability.footprint(of: [0]) == 4096)
        #expect(BatchDurability.footprint(of: [1, 4096]) == 4 * 4096)
        #expect(BatchDurability.footprint(of: [4097]) == 3 * 4096)
    }

    @Test func dirtyMemoryIsDirtyPlusWritebackOfMeminfo() {
        let meminfo = """
            MemTotal:        8000000 kB
            Dirty:              1500 kB
            Writeback:            12 kB
            WritebackTmp:        999 kB
            """
        #expect(DirtyMemory.parse(meminfo) == Int64(1512 * 1024))
        #expect(DirtyMemory.parse("MemTotal: 8 kB\nDirty: 3 kB\n") == nil, "no Writeback line")
        #expect(DirtyMemory.parse("Dirty: lots kB\nWriteback: 0 kB\n") == nil)
        #expect(DirtyMemory.bytes() != nil, "this machine's /proc/meminfo")
    }
}
