import Diary
import Foundation
import KeyedArchive
import Testing

/// Diaries we write are read by plistlib, bpylist2, nskeyedunarchiver and Foundation with the
/// same values and types (the Python side is `Tests/interop/decode_check.py`).
@Suite struct DiaryInteropTests {
    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func pythonCheck(library: String, format: PlistFormat) throws -> String? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("diary-interop-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let diaries = [DiaryFixtures.entries, [], DiaryFixtures.many(50)]
        var manifest = [JSONValue]()
        for (index, entries) in diaries.enumerated() {
            let file = folder.appendingPathComponent("diary\(index).plist")
            try Data(try DiaryArchive.encode(entries, format: format)).write(to: file)
            manifest.append(.object([("archive", .string(file.path)), ("key", .string("Diary")), ("expected", DiaryFixtures.typed(entries))]))
        }
        let manifestFile = folder.appendingPathComponent("cases.json")
        try JSONValue.array(manifest).serialized(indent: 0).write(to: manifestFile, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", repoRoot.appendingPathComponent("Tests/interop/decode_check.py").path, library, manifestFile.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return process.terminationStatus == 0 ? nil : errorText
    }

    @Test(arguments: ["plistlib", "bpylist2", "nskeyedunarchiver"])
    func pythonReadersReadOurBinaryDiaries(library: String) throws {
        let failure = try Self.pythonCheck(library: library, format: .binary)
        #expect(failure == nil, "\(failure ?? "")")
    }

    @Test func plistlibReadsOurXMLDiaries() throws {
        let failure = try Self.pythonCheck(library: "plistlib", format: .xml)
        #expect(failure == nil, "\(failure ?? "")")
    }

    @Test(arguments: [PlistFormat.binary, .xml])
    func foundationReadsOurDiaries(format: PlistFormat) throws {
        let bytes = try DiaryArchive.encode(DiaryFixtures.entries, format: format)
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: Data(bytes))
        unarchiver.requiresSecureCoding = false
        let list = unarchiver.decodeObject(forKey: "Diary") as? NSArray
        #expect(list?.count == DiaryFixtures.entries.count)
        for (entry, item) in zip(DiaryFixtures.entries, (list ?? []).map { $0 as? NSDictionary }) {
            #expect(item?["id"] as? String == entry.id)
            #expect(item?["title"] as? String == entry.title)
            #expect(item?["body"] as? String == entry.body)
            #expect((item?["created"] as? Date)?.timeIntervalSinceReferenceDate == entry.created.secondsSince2001)
            #expect((item?["modified"] as? Date)?.timeIntervalSinceReferenceDate == entry.modified.secondsSince2001)
            #expect((item?["tags"] as? NSArray)?.compactMap { $0 as? String } == entry.tags)
            #expect(item?["attachment"] as? String == entry.attachment)
        }
    }
}
