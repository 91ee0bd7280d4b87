import Foundation
import Glibc
import SyncPlanning

/// Follows one device's log: each `readNew()` returns the complete lines appended since
/// the last call. A last line without its `\n` is being written and waits for next time.
struct LogReader {
    let path: String
    let device: String
    private(set) var offset: Int64 = 0
    private(set) var lineNumber = 0
    /// How many lines of the file read so far broke the format and were skipped.
    private(set) var skippedLines = 0
    private var lastSize: Int64 = -1
    /// The file read last time: a log deleted and written again, or replaced (by a person,
    /// a replicator, a restore), is another file, read from its start.
    private var identity: FileIdentity?

    private struct FileIdentity: Equatable {
        let device: UInt64
        let inode: UInt64

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    init(path: String, device: String) {
        self.path = path
        self.device = device
    }

    /// Whether the file grew, shrank or was replaced since the last read: an `open`, an
    /// `fstat` and a `close`. Not `lstat` alone: on NFS it answers from the attribute
    /// cache, for up to a minute (acregmax) for a log left alone a while, where an open
    /// asks the server (close-to-open consistency, nfs(5)). On a local disk that costs
    /// next to nothing; on NFS a call to the server per log and poll, the price of seeing
    /// another device's change within the poll interval.
    func hasNews() -> Bool {
        var info = stat()
        // O_NONBLOCK: a FIFO put in the log's place must not hang the poll.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        if fd >= 0 {
            defer { close(fd) }
            guard fstat(fd, &info) == 0 else { return false }
        } else {
            guard let status = Sys.lstat(path) else { return false }  // out of descriptors, say
            info = status
        }
        return Int64(info.st_size) != lastSize || FileIdentity(info) != identity
    }

    /// Moves past lines this process appended itself and already knows (`span`), when they
    /// are the next ones to read; otherwise reads them as any others. Whether it moved.
    @discardableResult
    mutating func skip(_ span: LogWriter.Span) -> Bool {
        guard span.start == offset else { return false }
        offset = span.end
        lineNumber += span.lines
        return true
    }

    /// The records appended since the last call, and the lines that broke the format
    /// (named by file and line, then skipped). A file that is not the one read last time,
    /// or is now shorter than what was read of it, is read again from its start: read on
    /// from the old offset, it gave nothing until it outgrew it, then lines cut in the
    /// middle. Records read again are known already (`PathHistory` keeps each id once).
    mutating func readNew() throws(SyncError) -> (records: [VersionRecord], problems: [String]) {
        // O_NONBLOCK: a FIFO put in the log's place must not hang the pass (it reads as empty).
        let fd = try Sys.open(path, O_RDONLY | O_NONBLOCK)
        defer { close(fd) }
        var info = stat()
        fstat(fd, &info)
        lastSize = Int64(info.st_size)
        if let identity, identity != FileIdentity(info) || lastSize < offset {
            offset = 0
            lineNumber = 0
            skippedLines = 0
        }
        identity = FileIdentity(info)
        var records: [VersionRecord] = []
        var problems: [String] = []
        // In pieces: a log's size is anything (a sparse terabyte made one read of its whole
        // tail abort the daemon on its allocation).
        while lastSize > offset {
            let bytes = try readTail(fd: fd, count: Int(min(lastSize - offset, Int64(Self.pieceBytes))))
            guard let lastNewline = bytes.lastIndex(of: UInt8(ascii: "\n")) else {
                if bytes.count >= Self.longestLine {
                    problems.append("\(path):\(lineNumber + 1): no line ends within \(Self.longestLine) bytes, so the rest of this log is not read: the file is damaged (its device cuts it back to its last whole line when it starts)")
                    skippedLines += 1
                }
                break  // else the last line, still being written
            }
            for line in bytes[...lastNewline].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast() {
                lineNumber += 1
                switch Self.decode(line, device: device) {
                case .success(let record): records.append(record)
                case .failure(let error):
                    problems.append("\(path):\(lineNumber): \(error)")
                    skippedLines += 1
                }
            }
            offset += Int64(lastNewline + 1)
        }
        return (records, problems)
    }

    /// The most of a log read at once.
    static let pieceBytes = 16 << 20
    /// No log line is longer (a path is at most 4096 bytes): without a line end that far, a
    /// log is damaged, not being written.
    static let longestLine = 1 << 20

    private func readTail(fd: Int32, count: Int) throws(SyncError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled)) }
            if got < 0 {
                if errno == EINTR { continue }
                throw .system("pread", path)
            }
            if got == 0 { break }
            filled += got
        }
        return Array(bytes[..<filled])
    }

    private static let decoder = JSONDecoder()

    static func decode(_ line: ArraySlice<UInt8>, device: String) -> Result<VersionRecord, LogLineError> {
        do {
            let decoded = try LogLineScanner.scan(line) ?? decoder.decode(LogLine.self, from: Data(line))
            return decoded.record(device: device)
        } catch {
            return .failure(LogLineError("not a log line: \(error)"))
        }
    }
}
