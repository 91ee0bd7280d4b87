import Foundation
import Testing

@testable import SyncEngine
@testable import SyncPlanning

/// A writer whose clock runs behind (a board with no battery-backed clock, up before NTP
/// set it) dates its changes in the past: the version its edit replaced looked replaced
/// long ago, so the retention let a collector delete its content at once. Here device
/// 0123456789abcdef's log is written by hand: its second version is dated 60 days ago.
@Suite struct ClockSkewTests {
    static let day: Int64 = 86_400_000
    static let writer = "0123456789abcdef"

    @Test func aReplacementDatedInThePastCountsFromWhenThisDeviceReadIt() throws {
        let scratch = Scratch()
        let (b, c) = try scratch.pair()
        b.sync()  // makes the mirror
        let now = SyncClock.nowMilliseconds()
        let first = try Self.append(in: b.mirror, seq: 1, time: now - 90 * Self.day, parents: [], content: "first")
        b.sync()  // reads the first line: it was there before, its own time stands
        _ = try Self.append(in: b.mirror, seq: 2, time: now - 60 * Self.day, parents: ["\(Self.writer):1"], content: "second")
        b.sync()
        #expect(b.read("doc.txt") == "second")

        #expect(try Self.listed(b, now: now).contains("\(Self.writer):1"), "replaced as b read it, not 60 days ago")
        try b.restart()  // what b read when is kept
        #expect(try Self.listed(b, now: now + 29 * Self.day).contains("\(Self.writer):1"))
        #expect(try !Self.listed(b, now: now + 31 * Self.day).contains("\(Self.writer):1"), "the retention still ends")
        #expect(b.engine.collectStore(now: now + 2 * Self.day).deleted == 0, "its content is kept")
        #expect(Sys.lstat(MirrorLayout(root: b.mirror).object(first)) != nil)

        c.sync()  // a device that reads both lines at once has only their times to go by
        #expect(try !Self.listed(c, now: now).contains("\(Self.writer):1"))
    }

    @Test func checkpointsComeAtMostOncePerSpacingAndLinesBetweenCountAsReadAtTheNext() {
        var arrivals = LogArrivals()
        let start: Int64 = 1_000_000_000
        #expect(arrivals.due(container: "C", device: "d", readUpTo: 3, now: start)?.seen == LogArrivals.before)
        #expect(arrivals.due(container: "C", device: "d", readUpTo: 5, now: start + 1)?.seen == start + 1, "the first growth")
        #expect(arrivals.due(container: "C", device: "d", readUpTo: 9, now: start + 2) == nil, "within the spacing")
        #expect(arrivals.due(container: "C", device: "d", readUpTo: 9, now: start + 2 + LogArrivals.spacing)?.seen == start + 2 + LogArrivals.spacing)
        #expect(arrivals.due(container: "C", device: "d", readUpTo: 9, now: start + 3 * LogArrivals.spacing) == nil, "no growth")

        func seen(_ sequence: UInt64) -> Int64? { arrivals.seen(VersionID(device: "d", sequence: sequence), in: "C", now: 42) }
        #expect(seen(3) == nil && seen(1) == nil, "there before: the line's own time")
        #expect(seen(4) == start + 1 && seen(5) == start + 1)
        #expect(seen(6) == start + 2 + LogArrivals.spacing, "read before that checkpoint was due: counted at it")
        #expect(seen(10) == 42, "past the last checkpoint: read now")
        #expect(arrivals.seen(VersionID(device: "other", sequence: 1), in: "C", now: 42) == nil, "a log never checkpointed")
        let reloaded = LogArrivals([
            .init(container: "C", device: "d", sequence: 9, seen: start + 2 + LogArrivals.spacing),
            .init(container: "C", device: "d", sequence: 3, seen: LogArrivals.before),
            .init(container: "C", device: "d", sequence: 5, seen: start + 1),
        ])
        #expect(reloaded.seen(VersionID(device: "d", sequence: 6), in: "C", now: 42) == start + 2 + LogArrivals.spacing)
    }

    @Test func aWriterWhoseClockIsAheadIsSaidOnceItsLatestLineIsPastTheTolerance() throws {
        let scratch = Scratch()
        let b = try scratch.devices("b")[0]
        b.sync()
        let now = SyncClock.nowMilliseconds()
        _ = try Self.append(in: b.mirror, seq: 1, time: now + 3 * Self.day, parents: [], content: "ahead")
        b.sync()
        #expect(b.status().problems.contains { $0.contains("the latest change of device \(Self.writer) is dated 3 days after this device's clock") }, "\(b.status().problems)")

        _ = try Self.append(in: b.mirror, seq: 2, time: now, parents: ["\(Self.writer):1"], content: "set right")
        b.sync()
        #expect(!b.status().problems.contains { $0.contains("clock") }, "its clock was set right: \(b.status().problems)")
    }

    /// The ids `ubq versions` lists for doc.txt on `device` at `now`.
    private static func listed(_ device: TestDevice, now: Int64) throws -> [String] {
        try device.engine.versions(container: TestDevice.containerID, path: "Documents/doc.txt", now: now).map(\.id)
    }

    /// Appends a version of Documents/doc.txt holding `content` to the writer's log, with
    /// its content stored; returns the content's hash.
    private static func append(in mirror: String, seq: Int, time: Int64, parents: [String], content: String) throws -> String {
        let layout = MirrorLayout(root: mirror)
        let stored = try ContentStore(layout: layout, device: writer).store(bytes: Array(content.utf8))
        let parentList = parents.map { "\"\($0)\"" }.joined(separator: ",")
        let line = #"{"seq":\#(seq),"time":\#(time),"path":"Documents/doc.txt","parents":[\#(parentList)],"op":"put","kind":"file","mode":420,"sha256":"\#(stored.sha256)","size":\#(stored.size)}"#
        let log = layout.log(container: TestDevice.containerID.identifier, device: writer)
        try FileManager.default.createDirectory(atPath: Sys.parent(of: log), withIntermediateDirectories: true)
        let handle = FileHandle(forWritingAtPath: log) ?? {
            FileManager.default.createFile(atPath: log, contents: nil)
            return FileHandle(forWritingAtPath: log)!
        }()
        handle.seekToEndOfFile()
        handle.write(Data((line + "\n").utf8))
        handle.closeFile()
        return stored.sha256
    }
}
