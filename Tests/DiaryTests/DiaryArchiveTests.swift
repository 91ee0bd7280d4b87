import Diary
import KeyedArchive
import Testing

@Suite struct DiaryArchiveTests {
    @Test(arguments: [PlistFormat.binary, .xml])
    func diaryRoundTrips(format: PlistFormat) throws {
        let bytes = try DiaryArchive.encode(DiaryFixtures.entries, format: format)
        #expect(try DiaryArchive.decode(bytes) == DiaryFixtures.entries)
    }

    @Test func emptyDiaryRoundTrips() throws {
        #expect(try DiaryArchive.decode(try DiaryArchive.encode([])) == [])
    }

    @Test func diaryIsStoredAsTheReferenceAppStoresIt() throws {
        let graph = try KeyedUnarchiver.decode(try DiaryArchive.encode(DiaryFixtures.entries))
        #expect(graph.top.map(\.key) == ["Diary"])
        guard case .array(let items, _)? = graph.object(graph.topValue("Diary") ?? .null), items.count == 3,
              case .dictionary(let pairs, _)? = graph.object(items[0]) else {
            Issue.record("Diary is not an NSArray of NSDictionary")
            return
        }
        var fields = [String: ArchiveValue]()
        for pair in pairs { if case .string(let key) = pair.key { fields[key] = pair.value } }
        #expect(Set(fields.keys) == ["id", "title", "body", "created", "modified", "tags", "attachment"])
        #expect(fields["id"] == .string(DiaryFixtures.entries[0].id))
        if case .date(let seconds)? = graph.object(fields["created"] ?? .null) {
            #expect(seconds == 785_000_000.25)
        } else {
            Issue.record("created is not an NSDate")
        }
        if case .array(let tags, _)? = graph.object(fields["tags"] ?? .null) {
            #expect(tags == [.string("weather"), .string("home")])
        } else {
            Issue.record("tags is not an NSArray")
        }
    }

    @Test func anEntryWithoutAttachmentHasNoAttachmentKey() throws {
        let json = ArchiveJSON.document(archiveBytes: try DiaryArchive.encode([DiaryFixtures.entries[1]]), fileName: "d")
        guard case .array(let items)? = json["top"]?["Diary"], case .object(let members)? = items.first else {
            Issue.record("no entry rendered")
            return
        }
        #expect(!members.map(\.0).contains("attachment"))
    }

    @Test func anArchiveWithoutADiaryKeyIsAnErrorThatSaysSo() throws {
        var graph = ObjectGraph()
        graph.top = [(key: "root", value: .string("x"))]
        #expect {
            try DiaryArchive.decode(try KeyedArchiver.encode(graph))
        } throws: { error in
            (error as? ArchiveError)?.message.contains("'Diary'") == true
        }
    }

    @Test func newEntriesGetDistinctVersion4IDs() {
        let first = DiaryEntry(title: "a", body: "", now: ReferenceDate(secondsSince2001: 0))
        let second = DiaryEntry(title: "b", body: "", now: ReferenceDate(secondsSince2001: 0))
        #expect(first.id != second.id)
        #expect(first.id.count == 36 && Array(first.id)[14] == "4")
    }
}

/// Files written by other versions of the app may leave keys out.
@Suite struct DiaryLenienceTests {
    @Test func missingTagsAndModifiedGetDefaults() throws {
        let text = """
        {"top": {"Diary": [{"id": "X", "title": "t", "body": "b", "created": {"$date": 5.0, "$iso": ""}}]}}
        """
        let entries = try DiaryArchive.decode(try ArchiveJSON.archive(fromJSON: text))
        #expect(entries == [DiaryEntry(id: "X", title: "t", body: "b", created: ReferenceDate(secondsSince2001: 5),
                                       modified: ReferenceDate(secondsSince2001: 5))])
    }

    @Test func anEntryWithoutIDIsAnError() throws {
        let text = """
        {"top": {"Diary": [{"title": "t", "created": {"$date": 5.0, "$iso": ""}}]}}
        """
        #expect(throws: ArchiveError.self) { try DiaryArchive.decode(try ArchiveJSON.archive(fromJSON: text)) }
    }
}
