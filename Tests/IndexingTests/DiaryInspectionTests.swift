import ContentTypes
import Diary
import Foundation
import KeyedArchive
import MetadataIndex
import RawPaths
import TestSupport
import Testing

@testable import Indexing

/// `ItemInspector` on real files: diaries get their entries and a text made of them,
/// however they are named; a damaged one is a plain file and a warning.
@Suite struct DiaryInspectionTests {
    static let entries = [
        DiaryEntry(id: "E-1", title: "Tomato soup", body: "Simmer slowly.", created: ReferenceDate(secondsSince2001: 10),
                   modified: ReferenceDate(secondsSince2001: 20), tags: ["food", "recipe"]),
        DiaryEntry(id: "E-2", title: "Long walk", body: String(repeating: "rain and wind ", count: 2_000) + "heron",
                   created: ReferenceDate(secondsSince2001: 30), modified: ReferenceDate(secondsSince2001: 40)),
    ]

    final class Sandbox {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-inspect-\(UUID().uuidString.prefix(8))").path
        let (logger, messages) = RecordingLogHandler.logger()
        let inspector: ItemInspector

        init() throws {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            inspector = ItemInspector(detector: try ContentTypeDetector(), logger: logger)
        }

        deinit { try? FileManager.default.removeItem(atPath: folder) }

        func inspect(_ name: String, _ bytes: [UInt8]) throws -> ItemSnapshot {
            let path = folder + "/" + name
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let status = try #require(try FileStatus.read(RawPath(path)))
            return try #require(inspector.snapshot(container: "c", displayName: "C", folder: RawPath(folder), relativePath: RawPath(name),
                                                   status: status))
        }
    }

    @Test(arguments: [("journal", PlistFormat.binary), ("Diary.archive", .binary), ("notes.plist", .xml), ("x", .xml)])
    func aDiaryGetsItsEntriesAndTheirText(name: String, format: PlistFormat) throws {
        let sandbox = try Sandbox()
        let item = try sandbox.inspect(name, try DiaryArchive.encode(Self.entries, format: format))
        #expect(item.diaryEntries == Self.entries.map(DiaryEntryRecord.init))
        #expect(item.diaryEntries?.first?.tags == ["food", "recipe"])
        #expect(item.textContent == DiaryRecognizer.searchableText(Self.entries))
        #expect(item.textContent?.hasSuffix("heron") == true)  // beyond the first bytes read to sniff
        #expect(item.readError == nil)
        #expect(sandbox.messages.texts(at: .warning).isEmpty)
    }

    @Test func aDamagedDiaryIsAPlainFileAndAWarningNamingIt() throws {
        let sandbox = try Sandbox()
        let damaged = try ArchiveJSON.archive(fromJSON: #"{"top": {"Diary": [{"title": "no id"}]}}"#)
        let item = try sandbox.inspect("broken.archive", damaged)
        #expect(item.diaryEntries == nil)
        #expect(item.readError == nil)
        let warnings = sandbox.messages.texts(at: .warning)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains(sandbox.folder + "/broken.archive") == true, "\(warnings)")
    }

    @Test func otherFilesAreNotDiariesAndRaiseNoWarning() throws {
        let sandbox = try Sandbox()
        let text = try sandbox.inspect("notes.txt", Array("tomato soup".utf8))
        let list = try sandbox.inspect("settings.plist", try PropertyList.encode(.dictionary([PlistEntry("a", .integer(1))]), format: .binary))
        #expect(text.diaryEntries == nil && list.diaryEntries == nil)
        #expect(text.textContent == "tomato soup")
        #expect(sandbox.messages.texts(at: .warning).isEmpty)
    }
}
