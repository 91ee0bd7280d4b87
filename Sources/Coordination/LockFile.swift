#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One open lock file. OFD locks belong to the open file description, so every claim opens
/// (or takes from the pool) its own descriptor: two claims in one process exclude each other
/// just as claims of two processes do, and the kernel drops them all when the process dies.
///
/// Layout (a sparse file, never the document itself). A holder takes one `F_WRLCK` range:
/// - a shared holder locks one slot byte `s` in 1...1024 (free slots are probed), so shared
///   holders never conflict unless they pick the same slot, which they then skip;
/// - an exclusive holder locks `[0, 1025)`, all slots at once, so it conflicts with everyone;
/// - byte 1025 is the turnstile: a writer that waits holds it, and new readers of the item
///   wait behind it, so a stream of readers cannot starve a writer.
/// - offset 256 × s (s = 0 for the exclusive holder): the holder's record (pid, command,
///   since, access, item). A record is valid exactly while its byte is locked, so a killed
///   holder's stale record is ignored without any clean-up. Holders try slots 1...15 first,
///   so the records of a lock file stay in its first page (tmpfs memory);
/// - offset 512 KiB: the last move recorded by `FileCoordinator.item(at:didMoveTo:)`.
/// One `fcntl` takes a lock and one releases it, whatever the mode.
///
/// Lock files may be deleted (see `FileCoordinator.pruneLockFiles(unusedFor:)`) by whoever
/// holds one exclusively: a holder that finds its file unlinked after locking it starts over.
final class LockFile {
    static let slotCount = 1024
    static let recordOffset = 0
    /// Slots 1...preferredSlots are tried first: their records share one page.
    static let preferredSlots = 15
    /// The byte a waiting writer holds (see `tryExclusive`).
    static let turnstile = 1 + slotCount
    static let recordSize = 256
    static let moveOffset = 512 * 1024

    let fd: Int32
    let name: LockName
    /// The locked byte whose record this holder writes: 0 if exclusive, else its slot.
    private(set) var recordIndex: Int?
    private let pool: DescriptorPool?
    private var discarded = false
    private var announcedWriter = false

    /// Opens (with `create`, creating) the lock file `name`; throws `ENOENT` without.
    init(directory: Int32, name: LockName, pool: DescriptorPool? = nil, create: Bool = true) throws(Errno) {
        self.name = name
        self.pool = pool
        if let descriptor = pool?.take(name) {
            fd = descriptor
            return
        }
        let fileName = name.fileName
        fd = try fileName.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { path in
                Result { () throws(Errno) in
                    try Sys.openat(directory, path.baseAddress!, O_RDWR | (create ? O_CREAT : 0) | O_CLOEXEC | O_NOFOLLOW, 0o600)
                }
            }
        }.get()
    }

    /// Unlocks everything (so a forked child that shares the open file description until
    /// its `exec` cannot keep the claim alive), then pools or closes the descriptor.
    deinit {
        do {
            _ = try Sys.lock(fd, OFDCommand.setLock, type: F_UNLCK, start: 0, length: 0)
            if let pool, !discarded { pool.give(fd, for: name) } else { Sys.close(fd) }
        } catch {
            Sys.close(fd)
        }
    }

    /// Tries to take the lock without waiting; `false` when another holder conflicts.
    /// A shared item lock also gives way to a writer waiting here (`yieldsToWriters`).
    func tryLock(exclusive: Bool, yieldsToWriters: Bool, preferredSlot: Int) throws(Errno) -> Bool {
        if exclusive { return try tryExclusive() }
        if yieldsToWriters {
            let writer = try Sys.lock(fd, OFDCommand.getLock, type: F_RDLCK, start: LockFile.turnstile, length: 1)
            if writer.l_type != Int16(F_UNLCK) { return false }
        }
        return try tryShared(preferredSlot: preferredSlot)
    }

    /// A writer that has to wait holds the turnstile byte, so that new readers of the item
    /// queue behind it instead of starving it; it lets go once it holds the lock.
    private func tryExclusive() throws(Errno) -> Bool {
        guard try setLock(start: 0, length: 1 + LockFile.slotCount) else {
            if !announcedWriter { announcedWriter = try setLock(start: LockFile.turnstile, length: 1) }
            return false
        }
        if announcedWriter {
            _ = try Sys.lock(fd, OFDCommand.setLock, type: F_UNLCK, start: LockFile.turnstile, length: 1)
            announcedWriter = false
        }
        recordIndex = 0
        return true
    }

    private func tryShared(preferredSlot: Int) throws(Errno) -> Bool {
        for probe in 0..<LockFile.slotCount {
            let slot = 1 + (preferredSlot + probe) % LockFile.slotCount
            if try setLock(start: slot, length: 1) {
                recordIndex = slot
                return true
            }
            let conflict = try Sys.lock(fd, OFDCommand.getLock, type: F_WRLCK, start: slot, length: 1)
            if conflict.l_type != Int16(F_UNLCK) && conflict.l_start == 0 { return false }
        }
        return false
    }

    private func setLock(start: Int, length: Int) throws(Errno) -> Bool {
        do {
            _ = try Sys.lock(fd, OFDCommand.setLock, type: F_WRLCK, start: start, length: length)
            return true
        } catch where error.isContended {
            return false
        }
    }

    /// Whether the file was deleted (by a pruner) since it was opened: a lock on it would
    /// exclude nobody who opens the name now.
    func isUnlinked() throws(Errno) -> Bool {
        try Sys.fstat(fd).st_nlink == 0
    }

    /// Closes the descriptor instead of pooling it (for an unlinked file).
    func discard() {
        discarded = true
    }

    /// Writes this holder's record next to the byte it locked.
    func recordHolder(_ record: [UInt8]) throws(Errno) {
        guard let recordIndex else { return }
        _ = try Sys.pwrite(fd, record, at: LockFile.recordOffset + recordIndex * LockFile.recordSize)
    }

    /// The records of everyone holding a lock here now (from another open file description).
    func holders() throws(Errno) -> [HolderRecord] {
        var records: [HolderRecord] = []
        try collectHolders(from: 0, to: 1 + LockFile.slotCount, into: &records)
        return records
    }

    /// `F_OFD_GETLK` reports one conflicting lock of a range: read its record, then look
    /// on both sides of it. Costs a few calls per holder, and runs only after a timeout.
    private func collectHolders(from start: Int, to end: Int, into records: inout [HolderRecord]) throws(Errno) {
        guard start < end else { return }
        let conflict = try Sys.lock(fd, OFDCommand.getLock, type: F_WRLCK, start: start, length: end - start)
        guard conflict.l_type != Int16(F_UNLCK) else { return }
        let lockStart = Int(conflict.l_start)
        let lockEnd = conflict.l_len == 0 ? end : min(end, lockStart + Int(conflict.l_len))
        var buffer = [UInt8](repeating: 0, count: LockFile.recordSize)
        let count = try Sys.pread(fd, &buffer, at: LockFile.recordOffset + lockStart * LockFile.recordSize)
        if let record = HolderRecord(decoding: buffer[..<count]) { records.append(record) }
        try collectHolders(from: start, to: max(lockStart, start), into: &records)
        try collectHolders(from: max(lockEnd, start + 1), to: end, into: &records)
    }

    func writeMove(_ move: MoveRecord) throws(Errno) {
        _ = try Sys.pwrite(fd, move.encoded(), at: LockFile.moveOffset)
    }

    /// Reads the header first: on the path of every claim, and almost always empty.
    func readMove() throws(Errno) -> MoveRecord? {
        var header = [UInt8](repeating: 0, count: MoveRecord.headerSize)
        guard try Sys.pread(fd, &header, at: LockFile.moveOffset) == header.count,
              let length = MoveRecord.encodedLength(header: header) else { return nil }
        var buffer = [UInt8](repeating: 0, count: length)
        let count = try Sys.pread(fd, &buffer, at: LockFile.moveOffset)
        return MoveRecord(decoding: buffer[..<count])
    }
}
