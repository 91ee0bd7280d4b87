import Foundation
import Testing

@testable import SyncEngine

/// A writer whose clock went back (a board with no battery-backed clock, reset to 1970, or
/// up before NTP set it) dates its edits in the past: the version an edit replaced looked
/// replaced long ago, and a collector deleted its content at once. Here the logs of devices
/// w000000000000001 and w000000000000002 are written by hand. Every device must decide
/// alike, whether it read the lines one by one (b) or all at once (c): the store is shared.
@Suite struct ClockSkewTests {
    static let day: Int64 = 86_400_000

    /// The writer's own earlier line is dated an hour ago: its later lines were written after it.
    @Test func anEditDatedBeforeItsWritersEarlierLineCountsFromThatLine() throws {
        let scratch = Scratch()
        let (b, c) = try devices(in: scratch)
        let now = SyncClock.nowMilliseconds()
        try Self.append(in: b.mirror, device: 1, seq: 1, time: now - 90 * Self.day, path: "doc.txt", parents: [], content: "first")
        b.sync()
        try Self.append(in: b.mirror, device: 1, seq: 2, time: now - 3_600_000, path: "other.txt", parents: [], content: "other")
        try Self.append(in: b.mirror, device: 1, seq: 3, time: now - 60 * Self.day, path: "doc.txt", parents: ["w000000000000001:1"], content: "second")
        b.sync()
        c.sync()

        try expectKept("w000000000000001:1", on: [b, c], now: now, until: now - 3_600_000 + 30 * Self.day)
    }

    /// A writer's first line is dated 1970; the version it replaces was made yesterday.
    @Test func anEditDatedBeforeTheVersionItReplacesCountsFromThatVersion() throws {
        let scratch = Scratch()
        let (b, c) = try devices(in: scratch)
        let now = SyncClock.nowMilliseconds()
        try Self.append(in: b.mirror, device: 1, seq: 1, time: now - Self.day, path: "doc.txt", parents: [], content: "first")
        b.sync()
        try Self.append(in: b.mirror, device: 2, seq: 1, time: 0, path: "doc.txt", parents: ["w000000000000001:1"], content: "second")
        b.sync()
        c.sync()

        try expectKept("w000000000000001:1", on: [b, c], now: now, until: now - Self.day + 30 * Self.day)
    }

    /// Both edits of a writer new to the container are dated 1970: the second counts from
    /// when the first counts from, the version the first replaced (review).
    @Test func anEditOfAnEditDatedInThePastCountsFromWhatTheFirstReplaced() throws {
        let scratch = Scratch()
        let (b, c) = try devices(in: scratch)
        let now = SyncClock.nowMilliseconds()
        try Self.append(in: b.mirror, device: 1, seq: 1, time: now - Self.day, path: "doc.txt", parents: [], content: "first")
        b.sync()
        try Self.append(in: b.mirror, device: 2, seq: 1, time: 0, path: "doc.txt", parents: ["w000000000000001:1"], content: "middle")
        try Self.append(in: b.mirror, device: 2, seq: 2, time: 60_000, path: "doc.txt", parents: ["w000000000000002:1"], content: "second")
        b.sync()
        c.sync()

        try expectKept("w000000000000002:1", on: [b, c], now: now, until: now - Self.day + 30 * Self.day)
    }

    /// A line dated a century ahead (a clock set wrong, since put right) bounds nothing: the
    /// writer's later edits do not keep what they replace for a century (review).
    @Test func aBoundFarAheadOfTheClockIsIgnored() throws {
        let scratch = Scratch()
        let (b, _) = try devices(in: scratch)
        let now = SyncClock.nowMilliseconds()
        try Self.append(in: b.mirror, device: 1, seq: 1, time: now + 36_500 * Self.day, path: "other.txt", parents: [], content: "ahead")
        try Self.append(in: b.mirror, device: 1, seq: 2, time: now - 90 * Self.day, path: "doc.txt", parents: [], content: "first")
        try Self.append(in: b.mirror, device: 1, seq: 3, time: now - 60 * Self.day, path: "doc.txt", parents: ["w000000000000001:2"], content: "second")
        b.sync()

        #expect(b.read("doc.txt") == "second")
        #expect(try !listed(b, now: now).contains("w000000000000001:2"), "replaced 60 days ago, as its line says")
    }

    @Test func aWriterWhoseClockIsAheadIsSaidWhileItsLatestLineIsPastTheTolerance() throws {
        let scratch = Scratch()
        let (b, _) = try devices(in: scratch)
        let now = SyncClock.nowMilliseconds()
        try Self.append(in: b.mirror, device: 1, seq: 1, time: now + 3 * Self.day, path: "doc.txt", parents: [], content: "ahead")
        b.sync()
        #expect(b.status().problems.contains { $0.contains("the latest change of device w000000000000001 is dated 3 days after this device's clock") }, "\(b.status().problems)")

        try Self.append(in: b.mirror, device: 1, seq: 2, time: now, path: "doc.txt", parents: ["w000000000000001:1"], content: "set right")
        b.sync()
        #expect(!b.status().problems.contains { $0.contains("clock") }, "its clock was set right: \(b.status().problems)")
    }

    @Test func spansAreRoundedAndNeverOverflow() {
        #expect(ClockCheck.span(3_700_000) == "1 hour")
        #expect(ClockCheck.span(5_500_000) == "2 hours")
        #expect(ClockCheck.span(3 * Self.day - 1) == "3 days")
        #expect(ClockCheck.span(.max).hasSuffix(" days"))
        #expect(ClockCheck.note(lastRead: ["other": (1, .max)], own: "me", now: 0) != nil)
        #expect(ClockCheck.note(lastRead: ["me": (1, .max)], own: "me", now: 0) == nil, "its own lines say nothing of its clock")
    }

    /// Two synced devices, b and c, on a mirror b made (the folders go with `scratch`).
    private func devices(in scratch: Scratch) throws -> (TestDevice, TestDevice) {
        let (b, c) = try scratch.pair()
        b.sync()
        c.sync()
        return (b, c)
    }

    /// `version` of doc.txt is listed on each device until just before `until`, and not
    /// after; a collection by each, meanwhile, keeps its content.
    private func expectKept(_ version: String, on devices: [TestDevice], now: Int64, until: Int64) throws {
        for device in devices {
            #expect(device.read("doc.txt") == "second")
            #expect(try listed(device, now: until - 1).contains(version), "kept until a month after the edit could have been made")
            #expect(try !listed(device, now: until + 1).contains(version), "the retention still ends")
            let collected = device.engine.collectStore(now: now + 2 * Self.day)
            #expect(collected.deleted == 0, "\(collected)")
        }
    }

    /// The ids `ubq versions` lists for doc.txt on `device` at `now`.
    private func listed(_ device: TestDevice, now: Int64) throws -> [String] {
        try device.engine.versions(container: TestDevice.containerID, path: "Documents/doc.txt", now: now).map(\.id)
    }

    /// Appends a line to the log of device w00000000000000N: a version of Documents/`path`
    /// holding `content`, stored.
    private static func append(
        in mirror: String, device: Int, seq: Int, time: Int64, path: String, parents: [String], content: String
    ) throws {
        let writer = "w00000000000000\(device)"
        let layout = MirrorLayout(root: mirror)
        let stored = try ContentStore(layout: layout, device: writer).store(bytes: Array(content.utf8))
        let parentList = parents.map { "\"\($0)\"" }.joined(separator: ",")
        let line = #"{"seq":\#(seq),"time":\#(time),"path":"Documents/\#(path)","parents":[\#(parentList)],"op":"put","kind":"file","mode":420,"sha256":"\#(stored.sha256)","size":\#(stored.size)}"#
        let log = layout.log(container: TestDevice.containerID.identifier, device: writer)
        try FileManager.default.createDirectory(atPath: Sys.parent(of: log), withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: log) { FileManager.default.createFile(atPath: log, contents: nil) }
        let handle = try #require(FileHandle(forWritingAtPath: log))
        handle.seekToEndOfFile()
        handle.write(Data((line + "\n").utf8))
        handle.closeFile()
    }
}
