import Diary
import KeyedArchive
import Testing

@testable import Indexing

/// Diaries are told from other files by content; damaged ones are reported, never thrown.
@Suite struct DiaryRecognizerTests {
    static let entries = [
        DiaryEntry(id: "E-1", title: "Tomato soup", body: "Simmer slowly.", created: ReferenceDate(secondsSince2001: 10),
                   modified: ReferenceDate(secondsSince2001: 20), tags: ["food"]),
        DiaryEntry(id: "E-2", title: "Walk", body: "", created: ReferenceDate(secondsSince2001: 30),
                   modified: ReferenceDate(secondsSince2001: 30)),
    ]
    static let someName = Array("journal".utf8)
    static let diaryName = Array(DiaryArchive.fileName.utf8)

    static func archive(_ json: String) throws -> [UInt8] {
        try ArchiveJSON.archive(fromJSON: json)
    }

    @Test(arguments: [PlistFormat.binary, .xml])
    func aDiaryIsRecognizedByItsContentWhateverItsName(format: PlistFormat) throws {
        let bytes = try DiaryArchive.encode(Self.entries, format: format)
        #expect(DiaryRecognizer.isCandidate(fileName: Self.someName, leadingBytes: bytes.prefix(4096)))
        #expect(DiaryRecognizer.recognize(bytes, fileName: Self.someName) == .diary(Self.entries))
    }

    @Test func anEmptyDiaryHasNoEntries() throws {
        #expect(DiaryRecognizer.recognize(try Self.archive(#"{"top": {"Diary": []}}"#), fileName: Self.someName) == .diary([]))
    }

    @Test(arguments: [
        ("plain text", Array("tomato soup\n".utf8)),
        ("HTML", Array("<!doctype html><html><body>plist</body></html>".utf8)),
    ])
    func textThatIsNoPropertyListIsNoCandidate(label: String, bytes: [UInt8]) {
        #expect(!DiaryRecognizer.isCandidate(fileName: Self.someName, leadingBytes: bytes[...]), "\(label)")
        #expect(DiaryRecognizer.isCandidate(fileName: Self.diaryName, leadingBytes: bytes[...]), "\(label)")
    }

    @Test func otherPropertyListsAreNotDiariesAndNotDamaged() throws {
        let rootArchive = try Self.archive(#"{"top": {"root": {"Diary": "a key, but not in $top"}}}"#)
        let plainList = try PropertyList.encode(.dictionary([PlistEntry("Diary", .string("x"))]), format: .binary)
        let truncated = Array(try DiaryArchive.encode(Self.entries).prefix(40))
        for bytes in [rootArchive, plainList, truncated] {
            #expect(DiaryRecognizer.recognize(bytes, fileName: Self.someName) == .notADiary)
        }
    }

    @Test(arguments: [
        (#"{"top": {"Diary": [{"title": "no id", "created": {"$date": 1.0, "$iso": "x"}}]}}"#, "id"),
        (#"{"top": {"Diary": "not a list"}}"#, "expected an array"),
        (#"{"top": {"Diary": [1, 2]}}"#, "expected a dictionary"),
    ])
    func aDiaryWhoseEntriesCannotBeReadIsDamaged(json: String, mention: String) throws {
        guard case .damaged(let reason) = DiaryRecognizer.recognize(try Self.archive(json), fileName: Self.someName) else {
            Issue.record("\(json) was not reported damaged")
            return
        }
        #expect(reason.contains(mention))
    }

    @Test func aFileWithTheDiarysNameThatIsNoDiaryIsDamaged() throws {
        let cases: [[UInt8]] = [
            Array("just text".utf8), Array(try DiaryArchive.encode(Self.entries).prefix(40)),
            try Self.archive(#"{"top": {"root": 1}}"#),
        ]
        for bytes in cases {
            guard case .damaged = DiaryRecognizer.recognize(bytes, fileName: Self.diaryName) else {
                Issue.record("\(bytes.prefix(12)) named \(DiaryArchive.fileName) was not reported damaged")
                continue
            }
        }
    }

    @Test func theFilesTextIsEveryTitleAndBody() {
        #expect(DiaryRecognizer.searchableText(Self.entries) == "Tomato soup\nSimmer slowly.\n\nWalk\n")
    }
}
