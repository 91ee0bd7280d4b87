import Foundation
import Testing

/// `ubq diary` end to end through the built `ubq` (no daemon needed), and the diary example
/// run twice (creating, then overwriting) without and with ubqd.
@Suite struct DiaryCommandTests {
    struct Entry: Decodable, Equatable {
        var id: String
        var title: String
        var body: String
        var created: String
        var modified: String
        var tags: [String]
        var attachment: String?
    }

    @Test func addListShowRemoveAndExportWithJSON() throws {
        let harness = try DaemonHarness()
        let first = try harness.diary(["add", "--title", "First day", "--body", "It rained.", "--tag", "weather", "--tag", "home"])
        let second = try harness.diary(["add", "--title", "Second", "--body", "-"], input: "typed on stdin\nline two\n")

        let entries = try harness.diaryEntries(["list", "--json"])
        #expect(entries.map(\.id) == [first, second])
        #expect(entries[0].title == "First day" && entries[0].tags == ["weather", "home"] && entries[0].body == "It rained.")
        #expect(entries[1].body == "typed on stdin\nline two\n")
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let created = try #require(formatter.date(from: entries[0].created))
        #expect(abs(created.timeIntervalSinceNow) < 600)
        #expect(entries[0].created == entries[0].modified)

        let table = try harness.diary(["list"])
        #expect(table.contains(String(first.prefix(8))) && table.contains("First day") && table.contains("weather, home"))

        let shown = try JSONDecoder().decode(Entry.self, from: Data(try harness.diary(["show", String(second.prefix(6)).lowercased(), "--json"]).utf8))
        #expect(shown == entries[1])
        #expect(try harness.diary(["show", first]).contains("It rained."))

        #expect(try harness.diary(["rm", String(first.prefix(8))]) == "removed \(first)")
        #expect(try harness.diaryEntries(["list", "--json"]) == [entries[1]])
        #expect(try harness.diaryEntries(["export", "--json"]) == [entries[1]])
        let markdown = try harness.diary(["export"])
        #expect(markdown.hasPrefix("# Diary\n\n## Second\n"))
        #expect(markdown.contains("typed on stdin\nline two"))
        #expect(FileManager.default.fileExists(atPath: harness.documents + "/Diary.archive"))
        #expect(try harness.ubq(["archive", "decode", harness.documents + "/Diary.archive"]).status == 0)
    }

    /// An export keeps every byte in a file or a pipe, and reaches a terminal (here a
    /// pseudo-terminal, `script`) escaped.
    @Test func anExportIsEscapedOnlyOnATerminal() throws {
        let harness = try DaemonHarness()
        try harness.diary(["add", "--title", "Synced", "--body", "before \u{1B}[2J after"])
        #expect(try harness.diary(["export"]).contains("before \u{1B}[2J after"))
        let ubq = DaemonHarness.binaries + "/ubq"
        let terminal = try harness.shell("script -qec '\(ubq) diary export' /dev/null")
        #expect(!terminal.text.contains("\u{1B}") && terminal.text.contains("before \\u{1b}[2J after"), "\(terminal.text.debugDescription)")
    }

    @Test func unknownAndAmbiguousIdsFailWithAMessage() throws {
        let harness = try DaemonHarness()
        try harness.diary(["add", "--title", "a"])
        try harness.diary(["add", "--title", "b"])
        let unknown = try harness.ubq(["diary", "show", "not-an-id"])
        #expect(unknown.status == 1)
        #expect(unknown.errorText.contains("no entry's id starts with 'not-an-id'"))
        let ambiguous = try harness.ubq(["diary", "rm", ""])
        #expect(ambiguous.status == 1)
        #expect(ambiguous.errorText.contains("give more characters"))
        #expect(try harness.diaryEntries(["list", "--json"]).count == 2)
    }

    @Test func editRunsTheEditorAndSavesWhatItWrote() throws {
        let harness = try DaemonHarness()
        let id = try harness.diary(["add", "--title", "Draft", "--body", "first line\nsecond line", "--tag", "old"])
        let editor = "sed -i -e '1s/.*/Final title/' -e '2s/.*/Tags: new, two/' -e 's/second line/changed line/'"
        #expect(try harness.diary(["edit", String(id.prefix(8))], environment: ["EDITOR": editor]) == "saved \(id)")
        let entry = try #require(try harness.diaryEntries(["list", "--json"]).first)
        #expect(entry.title == "Final title")
        #expect(entry.tags == ["new", "two"])
        #expect(entry.body == "first line\nchanged line")
        #expect(entry.modified > entry.created)

        #expect(try harness.diary(["edit", id], environment: ["EDITOR": "true"]) == "no changes to \(id)")
        let failed = try harness.ubq(["diary", "edit", id], environment: ["EDITOR": "false"])
        #expect(failed.status == 1)
        #expect(failed.errorText.contains("nothing saved"))
        #expect(try harness.diaryEntries(["list", "--json"]) == [entry])
    }

    @Test func concurrentAddsFromSeveralProcessesAreAllKept() throws {
        let harness = try DaemonHarness()
        let processes = try (0..<4).map { index in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: DaemonHarness.binaries + "/ubq")
            process.arguments = ["diary", "add", "--title", "entry \(index)"]
            process.environment = harness.environment
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            return process
        }
        for process in processes { process.waitUntilExit() }
        #expect(processes.allSatisfy { $0.terminationStatus == 0 })
        let titles = try harness.diaryEntries(["list", "--json"]).map(\.title)
        #expect(titles.sorted() == (0..<4).map { "entry \($0)" })
    }

    @Test func fileAndContainerOptionsChooseTheDiary() throws {
        let harness = try DaemonHarness()
        let file = harness.base + "/elsewhere/My.archive"
        try harness.diary(["add", "--file", file, "--title", "in a file"])
        try harness.diary(["add", "--container", "iCloud.com.example.Diary", "--title", "in a container"])
        #expect(try harness.diaryEntries(["list", "--json", "--file", file]).map(\.title) == ["in a file"])
        #expect(FileManager.default.fileExists(atPath: harness.root + "/iCloud~com~example~Diary/Documents/Diary.archive"))
        #expect(try harness.diaryEntries(["list", "--json"]).isEmpty)
    }

    @Test func theDiaryExampleCreatesThenOverwrites() throws {
        let harness = try DaemonHarness()
        let example = DaemonHarness.binaries + "/diary-example"
        try FileManager.default.createDirectory(atPath: harness.documents, withIntermediateDirectories: true)
        let first = try CommandResult.run(example, ["Day one", "Sunny."], environment: harness.environment)
        #expect(first.status == 0, "\(first.errorText)")
        #expect(first.text.contains("ubqd is not running"))
        #expect(first.text.contains("saved for creating: 1 entries"))
        #expect(first.text.contains("last added before: none"), "\(first.text)")

        try harness.start()
        let second = try CommandResult.run(example, ["Day two", "Rain."], environment: harness.environment)
        #expect(second.status == 0, "\(second.errorText)")
        #expect(second.text.contains("query: 1 diary document(s) indexed"), "\(second.text)")
        #expect(second.text.contains("saved for overwriting: 2 entries"))
        let entries = try harness.diaryEntries(["list", "--json"])
        #expect(entries.map(\.title) == ["Day one", "Day two"])
        #expect(entries.map(\.body) == ["Sunny.", "Rain."])
        #expect(entries.allSatisfy { $0.tags == ["example"] })
        let firstID = try #require(entries.first?.id)
        #expect(second.text.contains("last added before: \(firstID)"), "the key-value store kept it: \(second.text)")
    }

    /// Its output read by a reader that went away (`diary-example | head -1`): the entry is
    /// saved all the same, and nothing traps.
    @Test func theDiaryExampleSavesWithItsOutputGoneNowhere() throws {
        let harness = try DaemonHarness()
        try harness.start()
        let (_, said) = try BrokenPipeTests.runWithOutputGoneNowhere(
            "diary-example", ["Unread", "Nobody reads this."], environment: harness.environment)
        #expect(!said.contains("Fatal error"), "\(said)")
        #expect(try harness.diaryEntries(["list", "--json"]).map(\.title) == ["Unread"])
    }
}

extension DaemonHarness {
    /// Runs `ubq diary ARGS`, expects success, and returns its output without the final newline.
    @discardableResult
    func diary(_ arguments: [String], input: String? = nil, environment extra: [String: String] = [:]) throws -> String {
        let result = try ubq(["diary"] + arguments, input: input, environment: extra)
        guard result.status == 0 else {
            throw HarnessError("ubq diary \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.errorText)")
        }
        return result.text.hasSuffix("\n") ? String(result.text.dropLast()) : result.text
    }

    func diaryEntries(_ arguments: [String]) throws -> [DiaryCommandTests.Entry] {
        try JSONDecoder().decode([DiaryCommandTests.Entry].self, from: Data(diary(arguments).utf8))
    }

    /// Runs `ubq` with `input` on its standard input (closed after) and `extra` environment.
    func ubq(_ arguments: [String], input: String? = nil, environment extra: [String: String]) throws -> CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binaries + "/ubq")
        process.arguments = arguments
        process.environment = environment.merging(extra) { $1 }
        let (stdin, stdout, stderr) = (Pipe(), Pipe(), Pipe())
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data((input ?? "").utf8))
        try stdin.fileHandleForWriting.close()
        let errors = ErrorReader(stderr.fileHandleForReading)
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandResult(status: process.terminationStatus, output: output, error: errors.wait())
    }
}
