import Foundation
import Glibc
import Testing

@testable import SyncEngine

/// What a log line in the shared mirror holds is its writer's word, and any device, person
/// or replicator can write one: sizes and numbers at the ends of their types, a log made a
/// sparse terabyte. A pass reports what it cannot take; it never takes ubqd down (each of
/// these trapped, or aborted on an allocation, before). Exit tests: a trap ends the process.
@Suite struct HostileLogTests {
    static let hostileDevice = "0123456789abcdef"

    @Test func fileSizesAtInt64MaxDoNotStopAPass() async throws {
        await #expect(processExitsWith: .success) {
            try HostileLogTests.passOver(in: Scratch()) { object in
                [Self.fileLine(1, "Documents/huge1.bin", object: object, size: Int.max),
                 Self.fileLine(2, "Documents/huge2.bin", object: object, size: Int.max)]
            }
        }
    }

    /// The object is whole (it hashes to its name) but the line says another size: the
    /// line is wrong, and the file is not installed with a size it does not have.
    @Test func aLineWhoseSizeIsNotItsContentsIsReportedAndNotInstalled() throws {
        let scratch = Scratch()
        let (report, b) = try Self.passOver(in: scratch) { object in
            [Self.fileLine(1, "Documents/larger.bin", object: object, size: 4),
             Self.fileLine(2, "Documents/smaller.bin", object: object, size: 2)]
        }
        #expect(b.read("real.txt") == "abc", "the other downloads go on")
        #expect(b.read("larger.bin") == nil && b.read("smaller.bin") == nil)
        for (path, claimed) in [("larger.bin", 4), ("smaller.bin", 2)] {
            #expect(
                report.problems.contains { $0.hasPrefix("Documents/\(path): the log line says \(claimed) bytes, but its content") && $0.contains("holds 3") },
                "\(report.problems)")
        }
    }

    /// A line with the wrong size that makes a conflict on what may be a property list (a
    /// diary): the conflict cannot be merged (its versions are read whole to try), which is
    /// reported for its path; the pass goes on (before, it failed as a whole, at every pass).
    @Test func aWrongSizeInAConflictStopsOnlyThatMerge() throws {
        let scratch = Scratch()
        let (report, next, b) = try Self.conflictWithAWrongSize(content: "bplist00, or so it starts", in: scratch)
        #expect(report.problems.contains { $0.hasPrefix("Documents/doc: its conflict versions were not merged: the log line says") }, "\(report.problems)")
        #expect(b.read("other.txt") == "other")
        #expect(next.indexState != nil && !next.lookedAtEverything, "the next pass ran whole, and scoped: \(next)")
    }

    /// A conflict on a file that is no property list is not read whole at every pass: no
    /// merge could apply, so nothing reports the wrong size either.
    @Test func aConflictOnAFileThatIsNoPropertyListIsNotReadToTryAMerge() throws {
        let scratch = Scratch()
        let (report, _, b) = try Self.conflictWithAWrongSize(content: "plain text", in: scratch)
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(b.engine.conflicts().count == 1)
    }

    /// b's pass, and the next, over a conflict on `doc` between a's edit (`content` and more)
    /// and another device's line that names `content` (a's first version) with a size one
    /// too large; a also added `other.txt`. The devices are in `scratch`.
    private static func conflictWithAWrongSize(content: String, in scratch: Scratch) throws -> (PassReport, PassReport, TestDevice) {
        let (a, b) = try scratch.pair()
        try a.write("doc", content)
        a.sync()
        b.sync()
        let first = try #require(try a.engine.versions(container: TestDevice.containerID, path: "Documents/doc").first)
        try a.write("doc", content + ", edited")
        a.sync()
        let object = try #require(first.sha256)
        _ = try writeLog(in: a.mirror, [fileLine(1, "Documents/doc", object: object, size: content.utf8.count + 1, parents: [first.id])])
        try a.write("other.txt", "other")
        a.sync()
        let report = b.sync()
        return (report, b.sync(changed: []), b)
    }

    @Test func aLineNumberedPastTheLargestSequenceIsSkippedAndReported() async throws {
        await #expect(processExitsWith: .success) {
            let (report, _) = try HostileLogTests.passOver(in: Scratch()) { object in
                [#"{"seq":18446744073709551615,"time":1,"path":"Documents/x.bin","parents":[],"op":"put","kind":"file","mode":420,"sha256":"\#(object)","size":3}"#]
            }
            #expect(report.problems.contains { $0.contains("seq 18446744073709551615 is outside") }, "\(report.problems)")
        }
    }

    /// A line numbered near the end of the range in this device's own log: its next change
    /// cannot be numbered on, which is said, not trapped.
    @Test func anOwnLogNumberedToTheEndStopsWithAMessage() async throws {
        await #expect(processExitsWith: .success) {
            let scratch = Scratch()
            let (a, _) = try scratch.pair()
            try a.write("one.txt", "1")
            a.sync()
            let log = MirrorLayout(root: a.mirror).log(container: TestDevice.containerID.identifier, device: a.engine.device.id)
            let handle = try #require(FileHandle(forWritingAtPath: log))
            handle.seekToEndOfFile()
            handle.write(Data((#"{"seq":9223372036854775807,"time":1,"path":"Documents/x","parents":[],"op":"delete"}"# + "\n").utf8))
            try handle.close()
            try a.restart()
            try a.write("two.txt", "2")
            let report = a.sync()
            #expect(report.problems.contains { $0.contains("too near the largest number") }, "\(report.problems)")
        }
    }

    @Test func aLogMadeASparseTerabyteIsReportedNotRead() async throws {
        await #expect(processExitsWith: .success) {
            let scratch = Scratch()
            let (a, b) = try scratch.pair()
            try a.write("real.txt", "abc")
            a.sync()
            let log = try HostileLogTests.writeLog(in: a.mirror, ["{}"])
            #expect(truncate(log, 1 << 40) == 0)
            let report = b.sync()
            #expect(b.read("real.txt") == "abc")
            #expect(report.problems.contains { $0.contains("no line ends within") }, "\(report.problems)")
        }
    }

    /// A device's pass over a log of another device holding `lines` (given the name of an
    /// object in the store), after a first device synced one file; both devices in
    /// `scratch`. Returns the pass's report and the device.
    @discardableResult
    private static func passOver(in scratch: Scratch, _ lines: (String) -> [String]) throws -> (report: PassReport, device: TestDevice) {
        let (a, b) = try scratch.pair()
        try a.write("real.txt", "abc")
        a.sync()
        let object = try #require(try a.engine.versions(container: TestDevice.containerID, path: "Documents/real.txt").first?.sha256)
        _ = try writeLog(in: a.mirror, lines(object))
        return (b.sync(), b)
    }

    private static func writeLog(in mirror: String, _ lines: [String]) throws -> String {
        let log = MirrorLayout(root: mirror).log(container: TestDevice.containerID.identifier, device: hostileDevice)
        try FileManager.default.createDirectory(atPath: Sys.parent(of: log), withIntermediateDirectories: true)
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: log))
        return log
    }

    private static func fileLine(_ seq: Int, _ path: String, object: String, size: Int, parents: [String] = []) -> String {
        let named = parents.map { #""\#($0)""# }.joined(separator: ",")
        return #"{"seq":\#(seq),"time":1,"path":"\#(path)","parents":[\#(named)],"op":"put","kind":"file","mode":420,"sha256":"\#(object)","size":\#(size)}"#
    }
}
