import APIModel
import Foundation
import GRDB
@testable import MetadataIndex
import RawPaths
import Testing

/// Diary entries in the index: stored with their diary's row, replaced and removed with it,
/// and queried on their own (`QuerySubject.diaryEntries`) without showing up among items.
@Suite struct DiaryEntryIndexTests {
    /// An items row as migration v1 defined it.
    static let v1Insert = """
        INSERT INTO items (container, rel, scope, kind, fs_name, fs_name_fold, display_name, display_name_fold,
            path, path_fold, url, size, created, modified, content_type, symlink_target, device, inode, mtime_ns,
            ctime_ns, read_error, container_display_name)
        VALUES (\(Array(repeating: "?", count: 22).joined(separator: ", ")))
        """
    static let day: Double = 86_400
    static let soup = DiaryEntryRecord(id: "A-1", title: "Tomato soup", body: "Simmer the tomatoes slowly.", created: 100 * day, modified: 100 * day, tags: ["food", "recipe"])
    static let walk = DiaryEntryRecord(id: "B-2", title: "Long walk", body: "Rain all afternoon.", created: 200 * day, modified: 250 * day, tags: ["outside"])
    static let chess = DiaryEntryRecord(id: "C-3", title: "Chess club", body: "Lost with the Sicilian.", created: 300 * day, modified: 300 * day, tags: [])

    static func diary(_ relative: String, _ entries: [DiaryEntryRecord]?, size: Int64 = 10) -> ItemSnapshot {
        var item = IndexFixture.item(relative, size: size, type: "public.data", tree: ["public.data", "public.item"])
        item.diaryEntries = entries
        return item
    }

    @Test(arguments: [
        (#"kMDItemTitle CONTAINS[c] "SOUP""#, ["Tomato soup"]),
        (#"kMDItemTextContent CONTAINS[c] "rain""#, ["Long walk"]),
        (#"kMDItemTextContent CONTAINS "tomato""#, ["Tomato soup"]),
        (#"kMDItemKeywords == "outside""#, ["Long walk"]),
        (#"kMDItemKeywords == "recipe" OR ubqDiaryEntryID == "C-3""#, ["Tomato soup", "Chess club"]),
        (#"kMDItemContentCreationDate > CAST(\#(150 * day), "NSDate")"#, ["Long walk", "Chess club"]),
        (#"kMDItemContentModificationDate BETWEEN {CAST(\#(240 * day), "NSDate"), CAST(\#(260 * day), "NSDate")}"#, ["Long walk"]),
        (#"kMDItemPath ENDSWITH "/Diary.archive""#, ["Tomato soup", "Long walk", "Chess club"]),
        (#"kMDItemTitle LIKE[c] "*CLUB""#, ["Chess club"]),
        (#"kMDItemTitle == "Long*"c"#, ["Long walk"]),
    ])
    func entriesAreFoundByEachAttribute(predicate: String, titles: [String]) throws {
        let fixture = try IndexFixture()
        defer { fixture.remove() }
        try fixture.index.apply([.upsert(Self.diary("Documents/Diary.archive", [Self.soup, Self.walk, Self.chess]))])
        #expect(try fixture.entryTitles(predicate) == titles)
    }

    @Test func entriesAreNotItems() throws {
        let fixture = try IndexFixture()
        defer { fixture.remove() }
        try fixture.index.apply([
            .upsert(Self.diary("Documents/Diary.archive", [Self.soup, Self.walk])),
            .upsert(IndexFixture.item("Documents/notes.txt", text: "tomato notes")),
        ])
        #expect(try fixture.query(nil).sorted() == ["Diary.archive", "notes.txt"])
        #expect(try fixture.index.counts() == [IndexFixture.container: 2])
        #expect(try fixture.entryTitles(nil) == ["Tomato soup", "Long walk"])
    }

    @Test func anUpsertReplacesEveryEntryAndANonDiaryKeepsNone() throws {
        let fixture = try IndexFixture()
        defer { fixture.remove() }
        try fixture.index.apply([.upsert(Self.diary("Documents/Diary.archive", [Self.soup, Self.walk]))])
        var edited = Self.soup
        edited.title = "Pumpkin soup"
        edited.body = "Roast the pumpkin."
        edited.tags = ["autumn"]
        try fixture.index.apply([.upsert(Self.diary("Documents/Diary.archive", [edited], size: 11))])
        #expect(try fixture.entryTitles(nil) == ["Pumpkin soup"])
        #expect(try fixture.entryTitles(#"kMDItemTextContent CONTAINS "tomatoes""#).isEmpty)
        #expect(try fixture.entryTitles(#"kMDItemTextContent CONTAINS "rain""#).isEmpty)
        #expect(try fixture.entryTitles(#"kMDItemKeywords == "food""#).isEmpty)
        #expect(try fixture.entryTitles(#"kMDItemKeywords == "autumn""#) == ["Pumpkin soup"])

        try fixture.index.apply([.upsert(Self.diary("Documents/Diary.archive", nil, size: 12))])
        #expect(try fixture.entryTitles(nil).isEmpty)
        #expect(try fixture.query(nil) == ["Diary.archive"])
    }

    /// Filling a waiting row's content adds text and entries without deleting any first:
    /// the change that made the row wait must have removed the old ones.
    @Test func aDiaryThatChangesLosesItsEntriesUntilItsContentIsReadAgain() throws {
        let fixture = try IndexFixture()
        defer { fixture.remove() }
        try fixture.index.apply([.upsert(Self.diary("Documents/Diary.archive", [Self.soup, Self.walk]))])
        var waiting = Self.diary("Documents/Diary.archive", nil, size: 11)
        waiting.contentPending = true
        try fixture.index.apply([.upsert(waiting)])
        #expect(try fixture.entryTitles(nil).isEmpty)
        #expect(try fixture.entryTitles(#"kMDItemTextContent CONTAINS "tomatoes""#).isEmpty)
        var edited = Self.soup
        edited.title = "Pumpkin soup"
        try fixture.index.apply([.fillContent(Self.diary("Documents/Diary.archive", [edited], size: 11))])
        #expect(try fixture.entryTitles(nil) == ["Pumpkin soup"])
        #expect(try fixture.index.pendingContentCount() == 0)
    }

    @Test func removingTheDiaryOrItsFolderRemovesItsEntriesAndTheirText() throws {
        let fixture = try IndexFixture()
        defer { fixture.remove() }
        try fixture.index.apply([
            .upsert(IndexFixture.item("Documents/trip", kind: .folder)),
            .upsert(Self.diary("Documents/trip/Log.archive", [Self.walk])),
            .upsert(Self.diary("Documents/Diary.archive", [Self.soup])),
        ])
        try fixture.index.apply([.remove(container: IndexFixture.container, relativePath: "Documents/trip")])
        #expect(try fixture.entryTitles(nil) == ["Tomato soup"])
        try fixture.index.apply([.remove(container: IndexFixture.container, relativePath: "Documents/Diary.archive")])
        #expect(try fixture.entryTitles(nil).isEmpty)
        #expect(try fixture.index.rowCount("diary_entry_text") == 0)
        #expect(try fixture.index.rowCount("diary_entry_tags") == 0)
    }

    @Test func entriesFollowAMovedFolder() throws {
        let fixture = try IndexFixture()
        defer { fixture.remove() }
        try fixture.index.apply([
            .upsert(IndexFixture.item("Documents/old", kind: .folder)),
            .upsert(Self.diary("Documents/old/Diary.archive", [Self.chess])),
        ])
        try fixture.index.apply([.move(container: IndexFixture.container, from: "Documents/old", to: "Documents/new", absoluteTo: "/r/iCloud~org~ubiquity~Default/Documents/new")])
        let entries = try fixture.entries(nil, attributes: ["kMDItemPath"])
        #expect(entries.map { $0.attributes["kMDItemPath"] } == [.string("/r/iCloud~org~ubiquity~Default/Documents/new/Diary.archive")])
        #expect(entries.first?.rawPath == Data("/r/iCloud~org~ubiquity~Default/Documents/new/Diary.archive".utf8))
    }

    @Test func anEntryCarriesEveryAttribute() throws {
        let fixture = try IndexFixture()
        defer { fixture.remove() }
        try fixture.index.apply([.upsert(Self.diary("Documents/Diary.archive", [Self.walk]))])
        let entry = try #require(try fixture.entries(nil, attributes: nil).first)
        #expect(entry.attributes == [
            "ubqDiaryEntryID": .string("B-2"), "kMDItemTitle": .string("Long walk"),
            "kMDItemContentCreationDate": .date(200 * Self.day), "kMDItemContentModificationDate": .date(250 * Self.day),
            "kMDItemKeywords": .array([.string("outside")]), "kMDItemTextContent": .string("Rain all afternoon."),
            "kMDItemPath": .string("/r/iCloud~org~ubiquity~Default/Documents/Diary.archive"),
        ])
    }

    @Test func sortKeysScopesAndFileOrder() throws {
        let fixture = try IndexFixture()
        defer { fixture.remove() }
        try fixture.index.apply([
            .upsert(Self.diary("Documents/b.archive", [Self.walk, Self.soup])),
            .upsert(Self.diary("Documents/a.archive", [Self.chess])),
            .upsert(Self.diary("Library/hidden.archive", [Self.soup])),
        ])
        #expect(try fixture.entryTitles(nil, scope: .documents) == ["Chess club", "Long walk", "Tomato soup"])
        #expect(try fixture.entryTitles(nil, scope: .data) == ["Tomato soup"])
        let byDate = [SortKey(attribute: "NSMetadataItemContentCreationDateKey", ascending: false)]
        #expect(try fixture.entryTitles(nil, scope: .documents, sort: byDate) == ["Chess club", "Long walk", "Tomato soup"])
        #expect(try fixture.entryTitles(nil, scope: .documents, sort: [SortKey(attribute: "kMDItemTitle")]) == ["Chess club", "Long walk", "Tomato soup"])
        #expect(try fixture.entryTitles(nil, scope: .documents, limit: 1) == ["Chess club"])
    }

    @Test func anIndexFromBeforeDiaryEntriesReadsItsFilesAgain() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-v1-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = IndexFixture.item("Documents/Diary.archive"), subfolder = IndexFixture.item("Documents/d", kind: .folder)
        do {
            let old = try DatabasePool(path: folder + "/index.sqlite")
            try Schema.migrator().migrate(old, upTo: "v1: items, types, text")
            try old.write { db in
                try db.execute(sql: "INSERT INTO meta(key, value) VALUES ('root', ?)", arguments: [IndexFixture.root.readable])
                var parents = ParentFolderCache()
                for item in [file, subfolder] {
                    // The columns of v1: today's values without `content_pending` (v3).
                    let values = Array(IndexWriter.values(of: item, parents: &parents).dropLast())
                    try db.execute(sql: Self.v1Insert, arguments: StatementArguments(values))
                }
            }
        }
        let index = try MetadataIndex(path: folder + "/index.sqlite", root: IndexFixture.root)
        let signatures = try index.signatures(container: IndexFixture.container, under: RawPath())
        #expect(signatures.count == 2)
        #expect(signatures[file.relativePath] != file.signature)
        #expect(signatures[subfolder.relativePath] == subfolder.signature)
    }

    @Test(arguments: ["kMDItemFSName == \"x\"", "kMDItemFSSize > 3"])
    func itemAttributesAreNotEntryAttributes(predicate: String) {
        #expect(throws: QueryPlanError.self) { try QueryPlan(QueryRequest(predicate: predicate), subject: .diaryEntries) }
        #expect(throws: QueryPlanError.self) { try QueryPlan(QueryRequest(predicate: #"kMDItemTitle == "x""#), subject: .items) }
        #expect(throws: QueryPlanError.self) { try QueryPlan(QueryRequest(sort: [SortKey(attribute: "kMDItemKeywords")]), subject: .diaryEntries) }
    }
}

extension IndexFixture {
    func entries(_ predicate: String?, scope: SearchScope = .all, sort: [SortKey] = [], limit: Int? = nil, attributes: [String]?) throws -> [ResultItem] {
        let request = QueryRequest(predicate: predicate, scope: scope, sort: sort, limit: limit, attributes: attributes, sync: false)
        return try index.run(try QueryPlan(request, subject: .diaryEntries)).items
    }

    func entryTitles(_ predicate: String?, scope: SearchScope = .all, sort: [SortKey] = [], limit: Int? = nil) throws -> [String] {
        try entries(predicate, scope: scope, sort: sort, limit: limit, attributes: ["kMDItemTitle"]).compactMap {
            if case .string(let title)? = $0.attributes["kMDItemTitle"] { return title }
            return nil
        }
    }
}

extension MetadataIndex {
    /// Rows left in a side table: what a cascade or trigger should have removed.
    func rowCount(_ table: String) throws -> Int {
        try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 }
    }
}
