import Foundation
import SyncPlanning
import Testing

@testable import SyncEngine

/// A device reads its own log back only for lines it did not append itself in this run
/// (`LogReader.skip`): a first sync appends a line per file and knows them all already.
@Suite struct OwnLogTests {
    let scratch = Scratch()
    var path: String { scratch.path + "/log/d1.ndjson" }

    func record(_ sequence: UInt64) -> VersionRecord {
        VersionRecord(
            id: VersionID(device: "d1", sequence: sequence), path: "Documents/f\(sequence).txt", parents: [],
            state: .file(sha256: String(repeating: "a", count: 64), size: 1), time: 1_000)
    }

    @Test func linesThisProcessAppendedAreNotReadAgainButLaterOnesAre() throws {
        var writer = try LogWriter(path: path, device: "d1", lastSequence: 0)
        var reader = LogReader(path: path, device: "d1")
        reader.skip(try writer.append(contentsOf: [record(1), record(2), record(3)]))
        #expect(try reader.readNew().records.isEmpty)

        try writer.append(contentsOf: [record(4)])  // not skipped: read as any other line
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data("not json\n".utf8))
        try handle.close()
        let (records, problems) = try reader.readNew()
        #expect(records.map(\.id.sequence) == [4])
        #expect(problems.count == 1 && problems[0].contains(":5:"), "line numbers count the skipped lines: \(problems)")
    }

    /// A device's log may be hostile: a path or a rename's origin that leaves the
    /// container, or that names on disk another path than its own (an empty component, a
    /// NUL byte), is refused, named by file and line, and the rest is read.
    @Test func pathsThatLeaveTheContainerAreRefused() throws {
        let lines = [
            #"{"seq":1,"time":1,"path":"Documents/ok.txt","parents":[],"op":"delete"}"#,
            #"{"seq":2,"time":1,"path":"Documents/../../etc/passwd","parents":[],"op":"delete"}"#,
            #"{"seq":3,"time":1,"path":"Documents/moved.txt","parents":[],"op":"delete","movedFrom":"../../../home"}"#,
            #"{"seq":4,"time":1,"path":"/etc/passwd","parents":[],"op":"delete"}"#,
            #"{"seq":5,"time":1,"path":"Documents/moved.txt","parents":[],"op":"delete","movedFrom":"Documents/./x"}"#,
            #"{"seq":6,"time":1,"path":"Documents//ok.txt","parents":[],"op":"delete"}"#,
            #"{"seq":7,"time":1,"path":"Documents/ok.txt\u0000.bak","parents":[],"op":"delete"}"#,
            #"{"seq":8,"time":1,"path":"Documents/folder/","parents":[],"op":"delete"}"#,
            #"{"seq":9,"time":1,"path":"","parents":[],"op":"delete"}"#,
        ]
        try FileManager.default.createDirectory(atPath: scratch.path + "/log", withIntermediateDirectories: true)
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        var reader = LogReader(path: path, device: "d1")
        let (records, problems) = try reader.readNew()
        #expect(records.map(\.path) == ["Documents/ok.txt"])
        #expect(problems.count == 8, "\(problems)")
        #expect(problems.contains { $0.contains(":3:") && $0.contains("movedFrom \"../../../home\"") }, "\(problems)")
    }

    @Test func aSpanThatIsNotNextIsReadAsUsual() throws {
        var writer = try LogWriter(path: path, device: "d1", lastSequence: 0)
        var reader = LogReader(path: path, device: "d1")
        try writer.append(contentsOf: [record(1)])
        reader.skip(try writer.append(contentsOf: [record(2)]))  // line 1 is still unread: no skip
        #expect(try reader.readNew().records.map(\.id.sequence) == [1, 2])
    }

    /// A full disk tears an append: nothing of it may stay, or the next append would
    /// follow a fragment (one unreadable line) or reuse the numbers of whole lines.
    @Test func aFailedAppendLeavesTheLogAsItWas() throws {
        var writer = try LogWriter(path: path, device: "d1", lastSequence: 0)
        try writer.append(contentsOf: [record(1)])
        let before = try #require(FileManager.default.contents(atPath: path))
        let faults = FaultInjection()
        faults.fail("log write", with: ENOSPC)
        #expect(throws: SyncError.self) { try writer.append(contentsOf: [record(2), record(3)], faults: faults) }
        #expect(FileManager.default.contents(atPath: path) == before)
        try writer.append(contentsOf: [record(2)])
        var reader = LogReader(path: path, device: "d1")
        let (records, problems) = try reader.readNew()
        #expect(records.map(\.id.sequence) == [1, 2])
        #expect(problems.isEmpty, "\(problems)")
    }

    /// The same through a pass: the pass pauses as one whose upload met the full disk does,
    /// the change is published by the next pass, and the other device reads every line of
    /// the log.
    @Test func aChangeWhoseLogAppendFailedSyncsOnceTheDiskHasRoom() throws {
        let devices = try scratch.devices("a", "b")
        let (a, b) = (devices[0], devices[1])
        try a.write("one.txt", "1")
        a.sync()
        let faults = FaultInjection()
        faults.fail("log write", with: ENOSPC)
        a.engine.faults = faults
        try a.write("two.txt", "2")
        let paused = a.sync()
        #expect(paused.problems.contains { $0.contains("paused until there is space") }, "\(paused.problems)")
        #expect(paused.incomplete, "the next pass is a full one")
        a.engine.faults = nil
        a.sync()
        let report = b.sync()
        #expect(b.tree() == ["one.txt": "1", "two.txt": "2"])
        #expect(report.problems.isEmpty, "no unreadable line in a's log")
    }
}
