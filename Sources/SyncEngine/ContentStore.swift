import CStatx
import CivilCalendar
import Crypto
import Foundation
import Glibc
import KeyedArchive
import RawPaths
import SyncPlanning

/// The mirror's content-addressed store: objects named by their SHA-256, written once,
/// never changed. Writing goes through `store/incoming/` so a partial upload is never
/// visible under an object's name.
struct ContentStore {
    let layout: MirrorLayout
    let device: String
    /// What a pass knows is not in the store, to spare it lookups; nil: every object is looked up.
    var absent: AbsentObjects? = nil

    /// Whether the store has the object already, to be named in a log line next. An
    /// object found is touched (its time set to now): the store's collector never deletes
    /// young objects, and this one is about to be needed again (docs/MIRROR-FORMAT.md,
    /// "Retention and collection"). An object another user owns cannot be touched; the
    /// collector's second read of the logs covers it.
    func reuses(_ sha256: String, size: Int64) -> Bool {
        if let absent, !absent.mayHold(sha256) { return false }
        guard Self.holds(sha256, size: size, in: layout) else { return false }
        _ = layout.object(sha256).withCString { utimensat(AT_FDCWD, $0, nil, AT_SYMLINK_NOFOLLOW) }
        return true
    }

    /// Copies the local file `relative` below `folders.root` (opened through no symlink),
    /// which the scan found to hash to `expected`, into `store/incoming/` without syncing
    /// it (`commit` does, for a whole batch). Nil when the store already has it. Throws
    /// `changedMeanwhile` if the file changed since the scan (the bytes read now hash
    /// otherwise): nothing is staged then.
    ///
    /// A large file whose signature (`scanned`) is known is copied in the kernel
    /// (copy_file_range: a reflink where the filesystem can) instead of read and hashed
    /// again; its signature before and after the copy proves it did not change meanwhile.
    ///
    /// An `early` copy the scan made (under the signature the scan read, `scanned`) is taken
    /// as it is if it holds the bytes hashed and the file still has that signature;
    /// otherwise it is removed and the file copied again.
    func stage(
        _ relative: RawPath, through folders: FolderCursor, expected: ContentHashing.Result, scanned: LocalSignature?, early: EarlyCopy? = nil
    ) throws(SyncError) -> StagedObject? {
        if reuses(expected.sha256, size: expected.size) {
            if let early { unlink(early.staging) }
            return nil
        }
        if let early {
            if early.signature.size == expected.size, folders.signature(relative) == early.signature {
                return StagedObject(staging: early.staging, object: layout.object(expected.sha256), size: expected.size, isEarlyCopy: true)
            }
            unlink(early.staging)
        }
        // O_NONBLOCK: a FIFO put in the file's place must not hang the pass.
        let source = try folders.open(relative, O_RDONLY | O_NONBLOCK)
        defer { close(source) }
        let path = folders.root.appending(relative).readable
        try DiskRoom.check(for: source, size: expected.size, in: layout.root)
        let staging = newStagingPath()
        let result: ContentHashing.Result
        do {
            result = try DurableFile.write(staging, mode: 0o444, sync: false, makingFolder: true) { fd throws(SyncError) in
                if let scanned, expected.size >= Self.kernelCopyThreshold, Self.signature(source) == scanned,
                    try Self.kernelCopy(from: source, to: fd, length: expected.size, path: path), Self.signature(source) == scanned
                {
                    return expected
                }
                return try ContentHashing.stream(from: source, path: path, to: fd, destinationPath: staging, expectedSize: expected.size)
            }
        } catch {
            unlink(staging)
            throw error
        }
        guard result == expected else {
            unlink(staging)
            throw SyncError(.changedMeanwhile, "\(path) changed while it was uploaded; it will be uploaded once it settles")
        }
        return StagedObject(staging: staging, object: layout.object(expected.sha256), size: expected.size)
    }

    /// A fresh name in `store/incoming/`, prefixed by this device's id (only it writes
    /// there). The folder is made by the write that finds it missing (`makingFolder`).
    func newStagingPath() -> String {
        "\(layout.incoming)/\(device).\(UniqueToken.next()).part"
    }

    /// Files from this size up are copied in the kernel when their signature vouches for them.
    static let kernelCopyThreshold: Int64 = 1 << 20

    /// How much `kernelCopy` copies before it starts writing that piece to the disk.
    static let kernelCopyPiece: Int64 = 32 << 20

    static func signature(_ fd: Int32) -> LocalSignature? {
        var info = stat()
        return fstat(fd, &info) == 0 ? LocalSignature(stat: info) : nil
    }

    /// A large file's early copy (`PendingCopy`), `length` bytes from `source`'s start: a
    /// reflink where the filesystem can; else written straight to the disk (`DirectCopy`),
    /// which the thread of its own it runs on can wait for; else copied in the kernel
    /// (`kernelCopy`). False (nothing copied) where none can be made.
    static func earlyCopy(
        from source: Int32, to destination: Int32, length: Int64, path: String, destinationPath: String
    ) throws(SyncError) -> Bool {
        if ubq_clone_file(destination, source) == 0 { return true }
        if SparseFiles.hasHoles(source) { return false }  // the upload streams it, keeping its holes
        if let copied = try DirectCopy.copy(from: source, to: destination, path: path, destinationPath: destinationPath) {
            guard copied == length else { throw SyncError(.changedMeanwhile, "\(path) changed while it was copied") }
            return true
        }
        return try kernelCopy(from: source, to: destination, length: length, path: path)
    }

    /// Copies `length` bytes with copy_file_range; false (nothing copied) where the
    /// filesystems cannot, or the source has holes, so the caller streams instead. The
    /// copy goes in pieces, and the writing of each piece to the disk starts as soon as it
    /// is copied: the batch's fsync later waits for the last pieces only, not for the whole
    /// file (for 1 GiB here, 0.80 s instead of 1.04 s).
    static func kernelCopy(from source: Int32, to destination: Int32, length: Int64, path: String) throws(SyncError) -> Bool {
        if SparseFiles.hasHoles(source) {
            // copy_file_range fills holes on ext4; a reflink keeps them (and costs nothing)
            // where the filesystem makes one. Otherwise the caller streams, keeping them.
            return ubq_clone_file(destination, source) == 0
        }
        var remaining = length
        while remaining > 0 {
            let copied = ubq_copy_file_range(source, destination, UInt(min(remaining, Self.kernelCopyPiece)))
            if copied > 0 {
                Sys.startWriteback(destination, offset: length - remaining, length: Int64(copied))
                remaining -= Int64(copied)
                continue
            }
            if copied == 0 { throw SyncError(.changedMeanwhile, "\(path) became shorter while it was uploaded") }
            if errno == EINTR { continue }
            if remaining == length && [EXDEV, ENOSYS, EINVAL, EOPNOTSUPP].contains(errno) { return false }
            throw .system("copy_file_range", path)
        }
        return true
    }

    /// Makes staged objects durable and visible: sync them, rename each into place, sync
    /// the folders the names went into. A reader never sees a partial object. How they are
    /// synced depends on the batch and on what else is dirty (`BatchDurability`), of which
    /// `pendingFootprint` is the pass's own: early copies that later batches will commit.
    func commit(_ objects: [StagedObject], pendingFootprint: Int64 = 0, faults: FaultInjection?) throws(SyncError) {
        let durability = BatchDurability(anchor: layout.root, sizes: objects.map(\.size), pending: pendingFootprint, faults: faults)
        try durability.syncFiles(objects.map(\.staging))
        // Synced after the renames: the folders the names left and those they went into.
        var folders = Set(objects.lazy.map { Sys.parent(of: $0.staging) })
        for object in objects {
            let folder = Sys.parent(of: object.object)
            if folders.insert(folder).inserted { try Sys.makeFolders(folder) }
            try Sys.rename(object.staging, object.object)
        }
        try durability.syncFolders(folders.sorted(), faults: faults)
    }

    /// Whether `layout`'s store has object `sha256` whole, as far as its size tells (its
    /// bytes are checked when it is read).
    static func holds(_ sha256: String, size: Int64, in layout: MirrorLayout) -> Bool {
        Sys.lstat(layout.object(sha256)).map { Int64($0.st_size) == size } ?? false
    }

    /// Makes `path` (a new name) hold `state`, a file (from the store, fsynced, with its
    /// mode and date) or a link: the item a version puts in place, once renamed in.
    func make(_ state: EntryState, at path: String) throws(SyncError) {
        if state.kind == .symlink {
            guard symlink(state.linkTarget ?? "", path) == 0 else { throw .system("symlink", path) }
        } else {
            try fetch(state.sha256 ?? "", size: state.size, to: path, mode: state.localMode, modified: state.modified)
        }
    }

    /// Copies object `sha256` to `destination` (a new file), checking its hash on the way:
    /// a damaged or truncated object is refused, never handed to the user, and set aside
    /// (`DamagedObjects`); what was written of the copy is removed.
    /// The copy is fsynced unless the caller syncs several copies together (`sync` false).
    /// It gets the modification time `modified` (`EntryState.modified`) when one is given.
    func fetch(
        _ sha256: String, size: Int64, to destination: String, mode: mode_t, modified: Int64?, sync: Bool = true
    ) throws(SyncError) {
        let object = layout.object(sha256)
        let source = try Self.open(object)
        defer { close(source) }
        try DiskRoom.check(for: source, size: size, in: Sys.parent(of: destination))
        let result = try DurableFile.write(destination, mode: mode, sync: sync) { fd throws(SyncError) in
            fchmod(fd, mode)  // the mode the version names, whatever the umask
            let streamed = try ContentHashing.stream(from: source, path: object, to: fd, destinationPath: destination)
            if let modified { Self.setModified(fd, to: modified) }
            return streamed
        }
        guard result.sha256 == sha256 else {
            unlink(destination)
            throw DamagedObjects.error(object, got: result.sha256, setAsideAt: DamagedObjects.setAside(object, read: source))
        }
        guard result.size == size else {
            unlink(destination)
            throw .sizeMismatch(object, holds: result.size, claimed: size)
        }
    }

    /// Gives the file open at `fd` the modification time `nanoseconds` (since 1970), its
    /// access time left as it is. A time the file system cannot hold (a log line may say
    /// any) leaves the file dated now: the content matters, its date is a courtesy.
    static func setModified(_ fd: Int32, to nanoseconds: Int64) {
        let parts = FileTime.parts(ofNanoseconds: nanoseconds)
        var times = [timespec(tv_sec: 0, tv_nsec: Self.omitTime), timespec(tv_sec: Int(parts.seconds), tv_nsec: Int(parts.nanoseconds))]
        _ = futimens(fd, &times)
    }

    /// `UTIME_OMIT` (sys/stat.h), a macro Swift does not import: the time left as it is.
    private static let omitTime = (1 << 30) - 2

    /// Opens `object` to read it. A FIFO there reads as empty: damaged. One that is missing
    /// is asked for again (`DamagedObjects.requestAgain`).
    static func open(_ object: String) throws(SyncError) -> Int32 {
        do {
            return try Sys.open(object, O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
        } catch where error.code == .system(ENOENT) {
            throw DamagedObjects.missingError(object, what: "")
        }
    }

    /// The largest object read whole into memory (a diary to merge).
    static let largestReadWhole = 64 << 20

    /// The content of `record`'s file, checked against its hash; nil for a folder, a link,
    /// a deletion or a file too large to read whole.
    func bytes(of record: VersionRecord) throws(SyncError) -> [UInt8]? {
        guard let state = record.state, state.kind == .file, let sha256 = state.sha256, state.size <= Self.largestReadWhole else { return nil }
        let object = layout.object(sha256)
        let source = try Self.open(object)
        defer { close(source) }
        // Never more than the line says and one byte: a line that claims a few bytes for
        // an object of gigabytes must not have it read into memory.
        let bytes = try Sys.readToEnd(source, path: object, limit: Int(state.size) + 1)
        guard bytes.count == state.size else {
            // The line or the object is wrong: the object's hash, read as a stream, tells.
            guard lseek(source, 0, SEEK_SET) == 0 else { throw .system("lseek", object) }
            let whole = try ContentHashing.stream(from: source, path: object, to: nil, destinationPath: "")
            guard whole.sha256 == sha256 else {
                throw DamagedObjects.error(object, got: whole.sha256, setAsideAt: DamagedObjects.setAside(object, read: source))
            }
            throw .sizeMismatch(object, holds: whole.size, claimed: state.size)
        }
        let got = ContentHashing.hex(SHA256.hash(data: bytes))
        guard got == sha256 else {
            throw DamagedObjects.error(object, got: got, setAsideAt: DamagedObjects.setAside(object, read: source))
        }
        return bytes
    }

    /// Whether `record`'s content may be a property list (a diary or a key-value store is
    /// one), by its first bytes; true when they cannot be read (reading it whole reports why).
    /// A pass reads a conflict's versions whole, to merge them, only then: not every file
    /// in conflict at every pass.
    func mayBePropertyList(_ record: VersionRecord) -> Bool {
        guard let sha256 = record.state?.sha256 else { return false }
        guard let fd = try? Sys.open(layout.object(sha256), O_RDONLY | O_NOFOLLOW | O_NONBLOCK) else { return true }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 1024)
        let count = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { return true }
        return PropertyList.formatName(of: Array(head[..<count])) != "other"
    }

    /// Stores `bytes` (made here, like a merged diary) durably and returns their hash.
    func store(bytes: [UInt8]) throws(SyncError) -> ContentHashing.Result {
        let result = ContentHashing.Result(sha256: ContentHashing.hex(SHA256.hash(data: bytes)), size: Int64(bytes.count))
        if reuses(result.sha256, size: result.size) { return result }
        let staging = newStagingPath()
        do {
            try DurableFile.write(staging, mode: 0o444, sync: false, makingFolder: true) { fd throws(SyncError) in try Sys.writeAll(fd, bytes, path: staging) }
        } catch {
            unlink(staging)
            throw error
        }
        try commit([StagedObject(staging: staging, object: layout.object(result.sha256), size: result.size)], faults: nil)
        return result
    }
}

/// An object written to `store/incoming/`, not yet synced or in place.
struct StagedObject {
    var staging: String
    var object: String
    var size: Int64
    /// Whether `staging` is a copy the scan made (`EarlyCopy`), not one the upload made.
    var isEarlyCopy = false
}
