import Diary
import Foundation
import KeyedArchive
import Testing
@testable import Ubiquity

/// The file `DiaryDocument` saves is the reference app's diary: Python's keyed-archive
/// readers (`Tests/interop/decode_check.py`) find the same entries under `$top` key `Diary`.
@Suite struct DiaryDocumentInteropTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(arguments: ["plistlib", "bpylist2", "nskeyedunarchiver"])
    func pythonReadersReadTheSavedDiary(library: String) async throws {
        let sandbox = try DocumentSandbox()
        let entries = [Samples.first, Samples.second, Samples.third]
        let diary = sandbox.diary()
        for entry in entries { diary.add(entry) }
        try await diary.save(to: sandbox.diaryURL, for: .forCreating)
        diary.add(DiaryEntry(title: "added later", body: "x", now: ReferenceDate(secondsSince2001: 800_000_000.125)))
        try await diary.close()  // the second save: for overwriting

        let cases: [[String: Any]] = [["archive": sandbox.diaryURL.path, "key": "Diary", "expected": Self.typed(diary.entries)]]
        let manifest = sandbox.root.appendingPathComponent("cases.json")
        try JSONSerialization.data(withJSONObject: cases).write(to: manifest)
        let result = try Self.python(["Tests/interop/decode_check.py", library, manifest.path])
        #expect(result.status == 0, "\(result.errors)")
    }

    /// The typed JSON of decode_check.py: `{"array": [{"dict": [[key, value], ...]}, ...]}`.
    static func typed(_ entries: [DiaryEntry]) -> [String: Any] {
        func string(_ text: String) -> [String: Any] { ["str": text] }
        func date(_ date: ReferenceDate) -> [String: Any] { ["date": date.secondsSince2001] }
        return ["array": entries.map { entry -> [String: Any] in
            var pairs: [[Any]] = [
                [string("id"), string(entry.id)], [string("title"), string(entry.title)], [string("body"), string(entry.body)],
                [string("created"), date(entry.created)], [string("modified"), date(entry.modified)],
                [string("tags"), ["array": entry.tags.map(string)]],
            ]
            if let attachment = entry.attachment { pairs.append([string("attachment"), string(attachment)]) }
            return ["dict": pairs]
        }]
    }

    static func python(_ arguments: [String]) throws -> (status: Int32, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        process.currentDirectoryURL = repository
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
