import CStatx
import Glibc

/// How a batch of new files, and then the folders that gained their names, are made
/// durable: an fsync of each (from several threads, `ConcurrentSync`), or one `syncfs` of
/// their filesystem.
///
/// `syncfs` writes every dirty file of the filesystem and flushes the disk's cache once;
/// fsyncs flush it once each, or once for those that wait side by side. When the batch is
/// most of what is dirty, `syncfs` costs a fraction (this machine's disk, small files, one
/// 16-thread fsync each against one `syncfs` before and after the renames, medians of 5,
/// scratch fsb.py): 16 files 3.7 ms against 0.9 ms, 256 files 51 ms against 6.5 ms,
/// 1,000 files 129 ms against 21 ms. But it also waits for everything else dirty there:
/// beside 10,000 other dirty small files, 16 files took 36 ms against 3.7 ms (and a
/// 3-file pass after a big copy on the same disk, 1.6 s). So it is chosen only while the
/// system's dirty memory is not much more than the batch itself (`dirtyAllowance`).
/// A 1,000-file re-sync of the 100,000-file corpus (scratch inc.py, medians of 15 rounds
/// interleaved): 0.281 s and 0.38 s of CPU with an fsync each, 0.237 s and 0.30 s so.
/// (Before, only batches of 1,024 objects or more took `syncfs`, whatever else was dirty:
/// a first sync of 100,000 files took 32 s that way, 45 s with an fsync each.)
///
/// Only on local filesystems that `syncfs` makes durable as fsync does. On a network or
/// FUSE filesystem it may only hand the data to the server (CIFS flushes the server's
/// cache on fsync alone), so each file is fsynced there. And only for files whose folders
/// are on the anchor's filesystem: a folder inside a container may be the mount point of
/// another, which the anchor's `syncfs` would not write.
struct BatchDurability {
    /// A folder on the batch's filesystem: what `syncfs` is given.
    let anchor: String
    /// Whether the batch is made durable with `syncfs` (else an fsync each).
    let wholeFilesystem: Bool
    /// The anchor's device, which the folders synced with it must share.
    private let device: dev_t?

    /// Chooses for a batch whose files hold `sizes` bytes, on `anchor`'s filesystem.
    /// `pending`: the footprint of dirty files of the same pass that later batches will
    /// sync (the scan's early copies). They count with the batch: a `syncfs` writes them
    /// now instead of later, not in vain. Without them, a first sync whose scan had copied
    /// every small file took each batch for a small part of much dirty data, and fsynced
    /// its files one by one (2,571 fsyncs against 27, scratch init8.sh).
    ///
    /// `faults` can make `statfs` fail: the filesystem is then unknown, and each file is
    /// fsynced (what tests use to take that way).
    init(anchor: String, sizes: [Int64], pending: Int64 = 0, faults: FaultInjection?) {
        let filesystem = faults?.failure(of: "statfs") == nil ? ubq_filesystem_type(anchor) : 0
        self.init(
            anchor: anchor,
            wholeFilesystem: Self.prefersWholeFilesystem(
                filesystem: filesystem, dirtyBytes: DirtyMemory.bytes(), batchBytes: Self.footprint(of: sizes), pendingBytes: pending))
    }

    init(anchor: String, wholeFilesystem: Bool) {
        self.anchor = anchor
        self.wholeFilesystem = wholeFilesystem
        device = Sys.lstat(anchor)?.st_dev
    }

    /// Makes `files` (written and closed, not synced) durable.
    func syncFiles(_ files: [String]) throws(SyncError) {
        guard !files.isEmpty else { return }
        if syncsWhole(Set(files.map(Sys.parent))) { try syncFilesystem() } else { try ConcurrentSync.fsync(files, folders: false) }
    }

    /// Makes the new names in `folders` durable; `faults` can make it fail ("fsync folder").
    func syncFolders(_ folders: [String], faults: FaultInjection?) throws(SyncError) {
        guard !folders.isEmpty else { return }
        guard syncsWhole(Set(folders)) else { return try ConcurrentSync.fsyncFolders(folders, faults: faults) }
        if let injected = faults?.failure(of: "fsync folder") { throw .system("syncfs", anchor, errno: injected) }
        try syncFilesystem()
    }

    /// Whether one `syncfs` covers what is in `folders`: each on the anchor's filesystem.
    func syncsWhole(_ folders: Set<String>) -> Bool {
        guard wholeFilesystem, let device else { return false }
        return folders.allSatisfy { Sys.lstat($0)?.st_dev == device }
    }

    /// `syncfs` of the anchor's filesystem.
    func syncFilesystem() throws(SyncError) {
        let fd = try Sys.open(anchor, O_RDONLY | O_DIRECTORY)
        defer { close(fd) }
        guard ubq_syncfs(fd) == 0 else { throw .system("syncfs", anchor) }
    }

    /// Filesystems whose `syncfs` writes and flushes all their dirty data and metadata:
    /// ext2/3/4, XFS, Btrfs, F2FS, tmpfs (nothing to write).
    static let localFilesystems: Set<Int> = [0xEF53, 0x5846_5342, 0x9123_683E, 0xF2F5_2010, 0x0102_1994]

    /// How much dirty memory the whole system may hold for a batch of `batchBytes` to be
    /// synced with `syncfs`. In the measurements above, each other dirty small file (a
    /// page of data, one of metadata) added about 3.5 µs to a `syncfs`, and an fsync cost
    /// about 230 µs a file: 16 times the batch, plus 1 MiB for the logs and databases any
    /// system writes, keeps well on the side where `syncfs` is cheaper.
    static func dirtyAllowance(_ batchBytes: Int64) -> Int64 { batchBytes.multipliedSaturated(by: 16).addingSaturated(1 << 20) }

    /// `filesystem`: statfs's f_type (0: unknown); `dirtyBytes`: nil when unknown;
    /// `pendingBytes`: the part of it that later batches of the same pass will sync.
    static func prefersWholeFilesystem(filesystem: Int, dirtyBytes: Int64?, batchBytes: Int64, pendingBytes: Int64 = 0) -> Bool {
        guard localFilesystems.contains(filesystem), let dirtyBytes else { return false }
        return dirtyBytes <= dirtyAllowance(batchBytes.addingSaturated(pendingBytes))
    }

    /// The dirty memory a batch makes: its data in whole pages, and a page of metadata a
    /// file (its inode, its name in a folder).
    static func footprint(of sizes: [Int64]) -> Int64 {
        let page: Int64 = 4096
        return sizes.lazy.map { ($0 / page * page).addingSaturated($0 % page == 0 ? page : 2 * page) }.saturatedSum
    }
}

/// The system's memory waiting to be written to disk (any disk).
enum DirtyMemory {
    /// `Dirty` plus `Writeback` of /proc/meminfo, in bytes; nil if it cannot be read.
    static func bytes() -> Int64? {
        let fd = open("/proc/meminfo", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 16_384)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return parse(String(decoding: buffer[..<count], as: UTF8.self))
    }

    /// The sum of the `Dirty:` and `Writeback:` lines ("Dirty:  1234 kB"); nil unless both are there.
    static func parse(_ meminfo: String) -> Int64? {
        var found: [Substring: Int64] = [:]
        for line in meminfo.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == ":" })
            guard fields.count >= 2, fields[0] == "Dirty" || fields[0] == "Writeback", let kilobytes = Int64(fields[1]) else { continue }
            found[fields[0]] = kilobytes * 1024
        }
        guard let dirty = found["Dirty"], let writeback = found["Writeback"] else { return nil }
        return dirty + writeback
    }
}
