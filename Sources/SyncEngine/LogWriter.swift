import Foundation
import Glibc
import SyncPlanning

/// Appends to this device's own log for one container. Only this device writes the file,
/// so appends need no lock; each is fsynced before the change counts as made.
struct LogWriter {
    let path: String
    let device: String
    private(set) var nextSequence: UInt64
    /// The log's size as this writer left it: when it was opened, then at the end of each
    /// append. A larger size at the next append means another process wrote the file.
    private var knownSize: Int64
    /// The mirror's marker file (`MirrorLayout.marker`): a log folder deleted by hand is
    /// made again only while it is there.
    private let marker: String?

    /// Opens (creating) the log and repairs a torn last line left by a crash: the file is
    /// ours alone, so cutting it back to the last complete line is safe.
    init(path: String, device: String, lastSequence: UInt64, marker: String? = nil) throws(SyncError) {
        guard lastSequence < LogLine.largestSequence - Self.sequenceRoom else {
            throw SyncError(
                .corruptMirror,
                "\(path) holds a line numbered \(lastSequence), too near the largest number a log line may have (\(LogLine.largestSequence)) to number on; "
                    + "a line written by hand or by a broken program. Sync of this container has stopped on this device. "
                    + "Stop ubqd, delete sync.sqlite from its state folder and start ubqd again: it joins as a new device, with a log of its own, and keeps its files")
        }
        self.path = path
        self.device = device
        self.marker = marker
        nextSequence = lastSequence + 1
        try Sys.makeFolders(Sys.parent(of: path))
        try Self.truncateTornTail(path)
        knownSize = Sys.lstat(path).map { Int64($0.st_size) } ?? 0
    }

    /// Numbers a writer keeps in hand past its log's last: more changes than a device makes.
    static let sequenceRoom: UInt64 = 1 << 40

    /// Throws `ownLogChanged` if the log grew beyond its size as this writer left it.
    ///
    /// Two machines may run with one device id: a state folder copied to set up a second
    /// machine (a cloned disk, a restored home folder) holds the first one's id. Both then
    /// append to one log with the same numbers, a version of one is dropped as a duplicate
    /// of the other's, and they diverge without a word. Stopping at the first append that
    /// finds lines this writer did not write since its last makes that loud instead. (Only
    /// between its own appends: what the log held when it was opened cannot be told from
    /// what this device's reader merely missed, a network mount's hiccup.)
    ///
    /// A shorter log (cut, deleted or replaced by an older copy) is taken as it is, and
    /// appended to: what other devices read of the lines it lost stays in their histories.
    private mutating func checkSize(_ size: Int64) throws(SyncError) {
        defer { knownSize = size }
        guard size > knownSize else { return }
        throw SyncError(
            .ownLogChanged,
            "\(path) is \(size) bytes long where this device left it at \(knownSize): another machine writes it under this device's id \(device), "
                + "most likely one set up with a copy of this device's state folder. Sync of this container has stopped on this device. "
                + "On the other machine, stop ubqd, delete sync.sqlite from its state folder and start ubqd again (it joins as a new device and keeps its files); then restart ubqd here")
    }

    /// Where an append's lines landed in the file.
    struct Span: Equatable {
        var start: Int64
        var end: Int64
        var lines: Int
    }

    /// Appends `record` (its id must be `nextID`) and fsyncs it.
    @discardableResult
    mutating func append(_ record: VersionRecord) throws(SyncError) -> Span {
        try append(contentsOf: [record])
    }

    /// Appends `records` (numbered on from `nextID`, without gaps) with one write and one
    /// fsync: a torn write (a crash) leaves a partial last line, which readers skip and the
    /// next start cuts off. Returns where they landed (only this device writes the file, so
    /// its size before the write is where the write starts).
    ///
    /// A write or fsync that fails (a full disk, EIO) may have put part of the batch in
    /// the file: it is cut back to where the batch began, since a later batch written
    /// after a fragment would make one unreadable line, and after whole lines would reuse
    /// their numbers. Callers drop this writer on failure all the same
    /// (`ContainerSync.appendOwn`): if the cut failed too, the next writer numbers on
    /// from what the log then holds.
    @discardableResult
    mutating func append(contentsOf records: [VersionRecord], faults: FaultInjection? = nil) throws(SyncError) -> Span {
        var bytes: [UInt8] = []
        for (offset, record) in records.enumerated() {
            precondition(record.id == VersionID(device: device, sequence: nextSequence + UInt64(offset)), "records are appended in order")
            LogLineEncoder.append(LogLine(record), to: &bytes)
            bytes.append(UInt8(ascii: "\n"))
        }
        let fd = try Self.openForAppending(path, marker: marker)
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .system("fstat", path) }
        try checkSize(Int64(info.st_size))
        do throws(SyncError) {
            if let code = faults?.failure(of: "log write") {
                try Sys.writeAll(fd, Array(bytes.prefix(bytes.count / 2 + 1)), path: path)  // as a full disk tears it
                throw SyncError.system("write", path, errno: code)
            }
            try Sys.writeAll(fd, bytes, path: path)
            try Sys.fsync(fd, path: path)
        } catch {
            _ = ftruncate(fd, info.st_size)
            var after = stat()
            if fstat(fd, &after) == 0 { knownSize = Int64(after.st_size) }  // if the cut failed too: what stays is ours
            throw error
        }
        nextSequence += UInt64(records.count)
        let span = Span(start: Int64(info.st_size), end: Int64(info.st_size) + Int64(bytes.count), lines: records.count)
        knownSize = span.end
        return span
    }

    /// The id the next appended record must carry.
    var nextID: VersionID { VersionID(device: device, sequence: nextSequence) }

    private static func truncateTornTail(_ path: String) throws(SyncError) {
        let fd: Int32
        do { fd = try openOwn(path, O_RDWR) } catch where error.code == .system(ENOENT) { return }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .system("fstat", path) }
        // Only the end is read: a torn line is at most one line long (a log may be large,
        // or made huge and sparse by someone).
        let size = Int64(info.st_size)
        let tail = Int(min(size, Int64(LogReader.longestLine)))
        guard tail > 0 else { return }
        var bytes = [UInt8](repeating: 0, count: tail)
        let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, tail, off_t(size) - off_t(tail)) }
        guard got == tail else { throw .system("pread", path) }
        guard bytes.last != UInt8(ascii: "\n") else { return }
        guard let lastNewline = bytes.lastIndex(of: UInt8(ascii: "\n")) ?? (size == Int64(tail) ? -1 : nil) else {
            throw SyncError(
                .corruptMirror,
                "\(path) ends with \(tail) bytes or more that are no log line: the file is damaged. Cut it back to its last whole line (after its last newline), then restart ubqd")
        }
        let keep = size - Int64(tail) + Int64(lastNewline + 1)
        guard ftruncate(fd, off_t(keep)) == 0 else { throw .system("ftruncate", path) }
    }

    /// Opens the log to append to it, making it, and its folder if that went too (a person
    /// tidying the mirror deleted every log): like a log cut back, it is taken as it is.
    /// Only while the mirror's `marker` is there: the mount point of a mirror unmounted
    /// since the pass began is empty, and the folder would be made on the disk below.
    private static func openForAppending(_ path: String, marker: String?) throws(SyncError) -> Int32 {
        do {
            return try openOwn(path, O_WRONLY | O_APPEND | O_CREAT)
        } catch where error.code == .system(ENOENT) {
            guard let marker, Sys.lstat(marker) != nil else { throw error }
            try Sys.makeFolders(Sys.parent(of: path))
            return try openOwn(path, O_WRONLY | O_APPEND | O_CREAT)
        }
    }

    /// Opens the log, never through a symbolic link: the log is this device's own file in
    /// the mirror, and through a link put in its place (by a person, or a replicator that
    /// carries links) the appends and the cut above would change the file it leads to,
    /// wherever that is. Such a link stops this container's sync, saying so.
    private static func openOwn(_ path: String, _ flags: Int32) throws(SyncError) -> Int32 {
        do {
            return try Sys.open(path, flags | O_NOFOLLOW, 0o644)
        } catch where error.code == .system(ELOOP) {
            throw SyncError(error.code, "\(path) is a symbolic link where this device's log should be; nothing was written through it: replace the link with the file it leads to, if that is this log, or remove it")
        }
    }
}
