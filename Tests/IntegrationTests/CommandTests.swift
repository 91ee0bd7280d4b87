import Foundation
import Testing

/// `ubq` commands that need no daemon: archives, predicates, coordination.
@Suite struct CommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/fixtures/keyedarchive")

    func ubq(_ arguments: [String], harness: DaemonHarness) throws -> CommandResult {
        try harness.ubq(arguments)
    }

    func topOf(_ data: Data) throws -> NSDictionary? {
        (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["top"] as? NSDictionary
    }

    @Test func archiveDecodeJSONMatchesTheExpectedFixture() throws {
        let harness = try DaemonHarness()
        let name = "bpylist2-complex_archive.plist"
        let result = try ubq(["archive", "decode", "--json", Self.fixtures.appendingPathComponent("archives/\(name)").path], harness: harness)
        #expect(result.status == 0)
        let expected = try Data(contentsOf: Self.fixtures.appendingPathComponent("expected/\(name).json"))
        let ours = try #require(try topOf(result.output))
        #expect(ours == (try topOf(expected)))
    }

    @Test func archiveEncodeRoundTripsThroughDecode() throws {
        let harness = try DaemonHarness()
        let source = Self.fixtures.appendingPathComponent("archives/scf-NSKeyedUnarchiver-ComplexTest.plist").path
        let json = try ubq(["archive", "decode", "--json", source], harness: harness)
        let jsonFile = harness.base + "/graph.json"
        try json.output.write(to: URL(fileURLWithPath: jsonFile))
        for format in [[], ["--xml"]] {
            let archive = harness.base + "/rebuilt\(format.count).plist"
            #expect(try ubq(["archive", "encode", jsonFile, archive] + format, harness: harness).status == 0)
            let again = try ubq(["archive", "decode", "--json", archive], harness: harness)
            #expect(try topOf(again.output) == (try topOf(json.output)))
        }
    }

    @Test func damagedArchiveFailsWithItsReason() throws {
        let harness = try DaemonHarness()
        let result = try ubq(["archive", "decode", Self.fixtures.appendingPathComponent("archives/k129-invalidReference.bin.plist").path], harness: harness)
        #expect(result.status == 1)
        #expect(result.errorText.contains("k129-invalidReference.bin.plist"))
    }

    @Test func predicateCheckAndEvalFollowTheirContract() throws {
        let harness = try DaemonHarness()
        let check = try ubq(["predicate", "check", "name  ==[cd]  'x' && size > 0x1F"], harness: harness)
        #expect(check.status == 0)
        #expect(!check.text.isEmpty)
        let bad = try ubq(["predicate", "check", "name == "], harness: harness)
        #expect(bad.status != 0)
        #expect(bad.errorText.contains("^"))
        let eval = try ubq(["predicate", "eval", "--json", "a.b BETWEEN {1, 3}", "--object", #"{"a": {"b": 2}}"#], harness: harness)
        #expect(eval.text.trimmingCharacters(in: .whitespacesAndNewlines) == #"{"result":true}"#)
        let raises = try ubq(["predicate", "eval", "--json", "name <= 3", "--object", #"{"name": "x"}"#], harness: harness)
        #expect(raises.status != 0)
        #expect(raises.text.contains(#""error":"evaluation""#))
    }

    @Test func coordinateWriteExcludesASecondWriterAndNamesTheHolder() throws {
        let harness = try DaemonHarness()
        try FileManager.default.createDirectory(atPath: harness.documents, withIntermediateDirectories: true)
        let file = harness.documents + "/shared.txt"
        FileManager.default.createFile(atPath: file, contents: Data("x".utf8))
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: DaemonHarness.binaries + "/ubq")
        holder.arguments = ["coordinate", "--write", file, "--", "sh", "-c", "echo held; read line"]
        holder.environment = harness.environment
        let input = Pipe()
        let output = Pipe()
        holder.standardInput = input
        holder.standardOutput = output
        try holder.run()
        // Wait for the event "the claim is held", not for time.
        let held = output.fileHandleForReading.availableDataUntilNewline()
        #expect(held == "held")
        let second = try ubq(["coordinate", "--write", "--timeout", "0.3", file, "--", "true"], harness: harness)
        #expect(second.status == 75)
        #expect(second.errorText.contains("held by pid \(holder.processIdentifier)"))
        try input.fileHandleForWriting.write(contentsOf: Data("go\n".utf8))
        holder.waitUntilExit()
        #expect(holder.terminationStatus == 0)
        #expect(try ubq(["coordinate", "--read", "--timeout", "5", file, "--", "sh", "-c", "exit 3"], harness: harness).status == 3)
    }
}

extension FileHandle {
    /// Reads until the first newline (or end of file) and returns the line.
    func availableDataUntilNewline() -> String {
        var bytes: [UInt8] = []
        while true {
            let chunk = readData(ofLength: 1)
            guard let byte = chunk.first, byte != 0x0A else { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
