import Foundation
import SyncPlanning
import TestSupport
import Testing

@testable import SyncEngine

/// `LogLineScanner` reads plain log lines without `JSONDecoder`. Whatever line it reads, it
/// must read as the decoder does; whatever it gives up on goes to the decoder.
@Suite struct LogLineScannerTests {
    let scratch = Scratch()

    static let sha = String(repeating: "0123456789abcdef", count: 4)

    static let records: [VersionRecord] = [
        VersionRecord(id: VersionID(device: "d1", sequence: 1), path: "Documents", parents: [], state: .folder(mode: 0o755), time: 1_795_340_000_000),
        VersionRecord(
            id: VersionID(device: "d1", sequence: 2), path: "Documents/a.txt", parents: [], state: .file(sha256: sha, size: 6, modified: 1_557_032_705_123_456_789),
            time: 1),
        VersionRecord(
            id: VersionID(device: "d1", sequence: 3), path: "Documents/Résumé — 東京.txt", parents: [VersionID(device: "d1", sequence: 2)],
            state: .file(sha256: sha, size: Int64.max, mode: 0o7777, modified: .min), time: -5, movedFrom: "Documents/a.txt"),
        VersionRecord(
            id: VersionID(device: "d1", sequence: 4), path: "Documents/link", parents: [VersionID(device: "other", sequence: 9), VersionID(device: "d1", sequence: 1)],
            state: .symlink(to: "../outside/target"), time: Int64.max),
        VersionRecord(id: VersionID(device: "d1", sequence: 5), path: "Documents/a.txt", parents: [VersionID(device: "d1", sequence: 3)], state: nil, time: 0),
        VersionRecord(
            id: VersionID(device: "d1", sequence: 6), path: "Documents/b.txt", parents: [VersionID(device: "d2", sequence: 4)],
            state: .file(sha256: sha, size: 1), time: 7, forgetsAncestors: true),
    ]

    /// The lines this device's writer appends, as they are in its log.
    func writtenLines() throws -> [ArraySlice<UInt8>] {
        let path = scratch.path + "/log/d1.ndjson"
        var writer = try LogWriter(path: path, device: "d1", lastSequence: 0)
        _ = try writer.append(contentsOf: Self.records)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        return bytes.split(separator: UInt8(ascii: "\n"))
    }

    static func decoded(_ line: ArraySlice<UInt8>) -> LogLine? {
        try? JSONDecoder().decode(LogLine.self, from: Data(line))
    }

    @Test func theWritersLinesAreReadWithoutTheDecoderAndAsItReadsThem() throws {
        let lines = try writtenLines()
        #expect(lines.count == Self.records.count)
        for line in lines {
            let scanned = try #require(LogLineScanner.scan(line), "\(String(decoding: line, as: UTF8.self))")
            #expect(scanned == Self.decoded(line))
        }
        let read = lines.map { try? LogLineScanner.scan($0)?.record(device: "d1").get() }
        #expect(read == Self.records)
        // Equality leaves the modification time out (`EntryState`): compared on its own.
        #expect(read.map { $0?.state?.modified } == Self.records.map(\.state?.modified))
    }

    @Test(arguments: [
        #"{"seq":1,"time":2,"path":"p","parents":[],"op":"delete"}"#,
        #" { "op" : "put" , "kind":"folder","seq" : 7 ,"time":-3,"parents":[ "a:1" , "b:2" ],"path":"x/y" } "#,
        #"{"seq":1,"time":2,"path":"p","parents":[],"op":"put","kind":null,"mode":null,"later":"field","n":-12,"b":true,"z":null}"#,
        #"{"seq":18446744073709551615,"time":-9223372036854775808,"path":"p","parents":[],"op":"put","size":9223372036854775807}"#,
        #"{"seq":1,"time":2,"path":"p","parents":["a:1"],"op":"delete","forgets":true}"#,
        #"{"seq":1,"time":2,"path":"p","parents":["a:1"],"op":"delete","forgets":false}"#,
        #"{"seq":1,"time":2,"path":"p","parents":["a:1"],"op":"delete","forgets":null}"#,
        #"{"seq":1,"time":2,"path":"p","parents":[],"op":"put","kind":"file","size":1,"mtime":-1557032705123456789}"#,
        #"{"seq":1,"time":2,"path":"p","parents":[],"op":"put","kind":"file","size":1,"mtime":null}"#,
    ])
    func plainLinesInAnyOrderAndSpacingAreRead(_ text: String) throws {
        let line = ArraySlice(Array(text.utf8))
        let scanned = try #require(LogLineScanner.scan(line))
        #expect(scanned == Self.decoded(line))
    }

    /// Lines the scanner leaves to the decoder: escapes, fractions, nested unknown fields, a
    /// field given twice, a missing one, bad syntax. Each still reads (or fails) in the log.
    @Test(arguments: [
        #"{"seq":1,"time":2,"path":"a\"b","parents":[],"op":"delete"}"#,
        #"{"seq":1,"time":2,"path":"a\/b","parents":[],"op":"delete"}"#,
        #"{"seq":1,"time":2.0,"path":"p","parents":[],"op":"delete"}"#,
        #"{"seq":1,"time":2e3,"path":"p","parents":[],"op":"delete"}"#,
        #"{"seq":1,"time":2,"path":"p","parents":[],"op":"delete","later":{"a":[1]}}"#,
        #"{"seq":1,"time":2,"path":"p","path":"q","parents":[],"op":"delete"}"#,
        #"{"seq":1,"time":2,"parents":[],"op":"delete"}"#,
        #"{"seq":-1,"time":2,"path":"p","parents":[],"op":"delete"}"#,
        #"{"seq":01,"time":2,"path":"p","parents":[],"op":"delete"}"#,
        #"{"seq":1,"time":- 2,"path":"p","parents":[],"op":"delete"}"#,
        #"{"seq":18446744073709551616,"time":2,"path":"p","parents":[],"op":"delete"}"#,
        #"{"seq":1,"time":2,"path":"p","parents":[],"op":"put","mode":4294967296}"#,
        #"{"seq":1,"time":2,"path":"p","parents":[],"op":"delete","b":truex}"#,
        #"{"seq":1,"time":2,"path":"p","parents":[],"op":"delete","forgets":1}"#,
        #"{"seq":1,"time":2,"path":"p","parents":[],"op":"delete","forgets":"true"}"#,
        #"{"seq":1,"time":2,"path":"p","parents":[],"op":"delete"} x"#,
        #"{"seq":1,"time":2,"path":"p","parents":[],"op":"delete",}"#,
        #"{"seq":1,"time":2,"path":"p","parents":[1],"op":"delete"}"#,
        #"{"seq":1,"time":2,"path":"p","parents":[],"op":"delete""#,
    ])
    func linesOutsideThePlainFormAreLeftToTheDecoder(_ text: String) {
        #expect(LogLineScanner.scan(ArraySlice(Array(text.utf8))) == nil)
    }

    @Test func bytesThatAreNotUTF8AreLeftToTheDecoder() {
        for bytes: [UInt8] in [[0xFF], [0xC3], [0xED, 0xA0, 0x80]] {
            let path = Array(#"{"seq":1,"time":2,"path":"p"#.utf8) + bytes + Array(#"","parents":[],"op":"delete"}"#.utf8)
            let key = Array(#"{"seq":1,"time":2,"path":"p","parents":[],"op":"delete",""#.utf8) + bytes + Array(#"":1}"#.utf8)
            #expect(LogLineScanner.scan(ArraySlice(path)) == nil)
            #expect(LogLineScanner.scan(ArraySlice(key)) == nil)
        }
    }

    /// Mangled lines, from the writer's: whatever the scanner accepts, the decoder reads
    /// alike. Enough of them must be accepted for the comparison to mean something.
    @Test(arguments: 0..<8)
    func mangledLinesReadAsTheDecoderReadsThem(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let lines = try writtenLines().map(Array.init)
        var accepted = 0
        for _ in 0..<2_000 {
            let line = ArraySlice(Self.mangle(lines.randomElement(using: &random)!, using: &random))
            guard let scanned = LogLineScanner.scan(line) else { continue }
            accepted += 1
            #expect(scanned == Self.decoded(line), "\(String(decoding: line, as: UTF8.self))")
        }
        #expect(accepted > 200)
    }

    static let fragments = [
        " ", "\t", "\r", ",", ":", "{", "}", "[", "]", "\"", "\\", "\\n", "\\u0041", "null", "true", "-", "0", "07", "1.5", "1e2",
        "99999999999999999999", "\"x\":1,", "\"seq\":3,", "\"later\":[1],", "\"mode\":null,", "\"size\":-1,", "é", "\u{1}",
    ].map { Array($0.utf8) } + [[0xFF], [0xC3]]

    /// Up to three changes: a fragment put in, a byte dropped or the line cut.
    static func mangle(_ line: [UInt8], using random: inout SplitMix64) -> [UInt8] {
        var line = line
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let at = Int.random(in: 0...line.count, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<7: line.insert(contentsOf: fragments.randomElement(using: &random)!, at: at)
            case 7..<9 where at < line.count: line.remove(at: at)
            default: line = Array(line[..<at])
            }
        }
        return line
    }

    /// In a log, the lines the scanner leaves to the decoder are read all the same.
    @Test func aLogMixingPlainAndOtherLinesIsReadWhole() throws {
        let path = scratch.path + "/log/d2.ndjson"
        try FileManager.default.createDirectory(atPath: scratch.path + "/log", withIntermediateDirectories: true)
        let text = [
            #"{"seq":1,"time":2,"path":"Documents","parents":[],"op":"put","kind":"folder","mode":493}"#,
            #"{"seq":2,"time":3,"path":"Documents\/a \"q\".txt","parents":[],"op":"put","kind":"folder","later":{"x":[1,2]}}"#,
            #"{"seq":3,"time":4.0,"path":"Documents/b","parents":["d2:1"],"op":"delete"}"#,
        ].joined(separator: "\n") + "\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        var reader = LogReader(path: path, device: "d2")
        let (records, problems) = try reader.readNew()
        #expect(problems.isEmpty)
        #expect(records.map(\.path) == ["Documents", "Documents/a \"q\".txt", "Documents/b"])
        #expect(records.map(\.id.sequence) == [1, 2, 3] && records[2].time == 4 && records[2].parents == [VersionID(device: "d2", sequence: 1)])
    }
}
