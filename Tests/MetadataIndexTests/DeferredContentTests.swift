import APIModel
import Foundation
import GRDB
import RawPaths
import Testing

@testable import MetadataIndex

/// The start-up scan's two steps in the index: rows recorded with `contentPending`, then
/// `fillContent`, which writes only over a row that still waits with the same signature;
/// the bulk load in one transaction; type trees stored once per content type.
@Suite struct DeferredContentTests {
    static func pending(_ relative: String, type: String = "public.plain-text") -> ItemSnapshot {
        var item = IndexFixture.item(relative, type: type)
        item.contentPending = true
        return item
    }

    @Test func fillingContentWritesTextAndTypeAndClearsThePendingMark() throws {
        let fixture = try IndexFixture()
        defer { fixture.remove() }
        #expect(try !fixture.index.hasPendingContent())
        try fixture.index.apply([.upsert(Self.pending("Documents/a.txt"))])
        #expect(try fixture.index.pendingContentCount() == 1)
        #expect(try fixture.index.hasPendingContent())
        #expect(try fixture.query(#"kMDItemTextContent CONTAINS "heron""#).isEmpty)

        var filled = IndexFixture.item("Documents/a.txt", type: "public.utf8-plain-text", text: "a grey heron")
        filled.contentTypeTree = ["public.utf8-plain-text", "public.plain-text", "public.text", "public.data", "public.item"]
        try fixture.index.apply([.fillContent(filled)])
        #expect(try fixture.index.pendingContentCount() == 0)
        #expect(try !fixture.index.hasPendingContent())
        #expect(try fixture.query(#"kMDItemTextContent CONTAINS "heron""#) == ["a.txt"])
        #expect(try fixture.query(#"kMDItemContentType == "public.utf8-plain-text""#) == ["a.txt"])
    }

    @Test func fillingContentSetsOnlyTheColumnsContentDecides() throws {
        let fixture = try IndexFixture()
        defer { fixture.remove() }
        try fixture.index.apply([.upsert(Self.pending("Documents/a.txt", type: "public.data"))])
        // Triggers fire for an UPDATE that names their column, whatever the value.
        let watcher = try DatabaseQueue(path: fixture.folder + "/index.sqlite")
        try watcher.write { db in
            try db.execute(sql: """
                CREATE TABLE updated(what TEXT);
                CREATE TRIGGER names AFTER UPDATE OF fs_name, fs_name_fold, path, size, modified ON items
                    BEGIN INSERT INTO updated VALUES ('names'); END;
                CREATE TRIGGER content AFTER UPDATE OF content_type, content_pending ON items
                    BEGIN INSERT INTO updated VALUES ('content'); END
                """)
        }
        var filled = IndexFixture.item("Documents/a.txt", type: "public.utf8-plain-text", text: "a grey heron")
        filled.readError = "read: interrupted"
        try fixture.index.apply([.fillContent(filled)])
        #expect(try watcher.read { try String.fetchAll($0, sql: "SELECT what FROM updated") } == ["content"])
        let row = try #require(try watcher.read { try Row.fetchOne($0, sql: "SELECT content_type, read_error, content_pending FROM items") })
        #expect(row["content_type"] as String == "public.utf8-plain-text")
        #expect(row["read_error"] as String? == "read: interrupted")
        #expect(row["content_pending"] as Bool == false)
        #expect(try fixture.query(#"kMDItemTextContent CONTAINS "heron" AND kMDItemFSName == "a.txt" AND kMDItemFSSize == 10"#) == ["a.txt"])
    }

    @Test func contentReadBeforeTheFileChangedIsNotWritten() throws {
        let fixture = try IndexFixture()
        defer { fixture.remove() }
        try fixture.index.apply([.upsert(Self.pending("Documents/a.txt"))])
        var stale = IndexFixture.item("Documents/a.txt", text: "old words")
        stale.signature.modifiedNanoseconds += 1  // read after the scan, under another signature
        try fixture.index.apply([.fillContent(stale)])
        #expect(try fixture.index.pendingContentCount() == 1)
        #expect(try fixture.query(#"kMDItemTextContent CONTAINS "old""#).isEmpty)
    }

    @Test func contentIsNotWrittenOverARowTheWatcherAlreadyIndexedInFull() throws {
        let fixture = try IndexFixture()
        defer { fixture.remove() }
        try fixture.index.apply([.upsert(Self.pending("Documents/a.txt"))])
        try fixture.index.apply([.upsert(IndexFixture.item("Documents/a.txt", text: "fresh"))])
        try fixture.index.apply([.fillContent(IndexFixture.item("Documents/a.txt", text: "late"))])
        #expect(try fixture.query(#"kMDItemTextContent CONTAINS "fresh""#) == ["a.txt"])
        #expect(try fixture.query(#"kMDItemTextContent CONTAINS "late""#).isEmpty)
    }

    @Test func aPassOverPendingItemsMeetsEachOnceInIdOrder() throws {
        let fixture = try IndexFixture()
        defer { fixture.remove() }
        try fixture.index.apply((0..<5).map { .upsert(Self.pending("Documents/f\($0).txt")) })
        let first = try fixture.index.pendingContent(after: 0, limit: 3)
        let rest = try fixture.index.pendingContent(after: try #require(first.last).id, limit: 3)
        #expect(first.count == 3 && rest.count == 2)
        #expect(Set((first + rest).map(\.relativePath.readable)) == Set((0..<5).map { "Documents/f\($0).txt" }))
        #expect(try fixture.index.pendingContent(after: try #require(rest.last).id, limit: 3).isEmpty)
    }

    @Test func aBulkLoadIntoAnEmptyIndexLeavesItsSecondaryIndexesToBeBuiltAfter() async throws {
        let fixture = try IndexFixture()
        defer { fixture.remove() }
        try fixture.index.applyInOneTransaction(container: IndexFixture.container) { load in
            try load.apply((0..<50).map { .upsert(IndexFixture.item("Documents/f\($0).txt", size: Int64($0))) })
            try load.apply([.upsert(IndexFixture.item("Documents/sub", kind: .folder))])
            try load.apply((0..<3).map { .upsert(Self.pending("Documents/p\($0).txt")) })
        }
        let deferred = Set(Schema.deferredIndexes.map(\.name))
        #expect(deferred.contains("items_content_pending") && deferred.isSuperset(of: Schema.itemIndexes.map(\.name)))
        let query = { try fixture.query("kMDItemFSSize >= 48 AND kMDItemFSName ENDSWITH '.txt'", sort: [SortKey(attribute: "kMDItemFSSize")]) }
        let pending = { try fixture.index.pendingContent(after: 0, limit: 10).map(\.relativePath.readable) }
        #expect(try Self.itemIndexNames(fixture).isDisjoint(with: deferred))
        #expect(try query() == ["f48.txt", "f49.txt"])  // a table scan, same answer
        #expect(try pending() == ["Documents/p0.txt", "Documents/p1.txt", "Documents/p2.txt"])

        #expect(try await fixture.index.buildSecondaryIndexes() == deferred.count)
        #expect(deferred.isSubset(of: try Self.itemIndexNames(fixture)))
        #expect(try query() == ["f48.txt", "f49.txt"])
        #expect(try pending() == ["Documents/p0.txt", "Documents/p1.txt", "Documents/p2.txt"])
        #expect(try await fixture.index.buildSecondaryIndexes() == 0)
    }

    private static func itemIndexNames(_ fixture: IndexFixture) throws -> Set<String> {
        try fixture.index.pool.read { db in
            try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'items'")
        }
    }

    @Test func aContentTypesTreeIsStoredOncePerTypeAndQueriedThroughTheView() throws {
        let fixture = try IndexFixture()
        defer { fixture.remove() }
        try fixture.index.apply((0..<20).map { .upsert(IndexFixture.item("Documents/f\($0).txt")) })
        let rows = try fixture.index.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM type_trees") }
        #expect(rows == 4)  // public.plain-text's tree, once
        #expect(try fixture.query(#"kMDItemContentTypeTree == "public.text""#).count == 20)
        let item = try #require(try fixture.index.item(container: IndexFixture.container, relativePath: RawPath("Documents/f3.txt")))
        #expect(item.attributes["kMDItemContentTypeTree"] == .array(["public.plain-text", "public.text", "public.data", "public.item"].map(AttributeValue.string)))
    }

    @Test func migratingAVersion2IndexKeepsEveryItemsTypeTree() throws {
        let fixture = try IndexFixture()
        defer { fixture.remove() }
        let path = fixture.folder + "/v2.sqlite"
        do {
            let old = try DatabasePool(path: path)
            try Schema.migrator().migrate(old, upTo: "v2: diary entries")
            try old.write { db in
                try db.execute(sql: "INSERT INTO meta(key, value) VALUES ('root', ?)", arguments: [IndexFixture.root.readable])
                var parents = ParentFolderCache()
                let item = IndexFixture.item("Documents/a.txt")
                try db.execute(sql: DiaryEntryIndexTests.v1Insert, arguments: StatementArguments(Array(IndexWriter.values(of: item, parents: &parents).dropLast())))
                for (position, uti) in item.contentTypeTree.enumerated() {
                    try db.execute(sql: "INSERT INTO item_types(item_id, position, uti) VALUES (1, ?, ?)", arguments: [position, uti])
                }
            }
        }
        let index = try MetadataIndex(path: path, root: IndexFixture.root)
        let item = try #require(try index.item(container: IndexFixture.container, relativePath: RawPath("Documents/a.txt")))
        #expect(item.attributes["kMDItemContentTypeTree"] == .array(["public.plain-text", "public.text", "public.data", "public.item"].map(AttributeValue.string)))
    }
}

/// `path`, `path_fold` and `url` are built from what the parent folder gives and the
/// name; they must equal the readable path, its fold and its URL made from the whole path
/// at once, whatever the names, whether the folder is met for the first time or again.
@Suite struct ParentFolderCacheTests {
    /// The three columns, through a sink of `DatabaseValue`s and through a `NewRows` batch.
    static func columns(_ parents: inout ParentFolderCache, _ raw: RawPath, isFolder: Bool) -> [[String]] {
        let name = ParentFolderCache.fold(String(decoding: raw.lastComponent ?? [], as: UTF8.self))
        var values: [DatabaseValue] = []
        parents.appendPathColumns(raw, foldedName: name, isFolder: isFolder, to: &values)
        var rows = NewRows()
        parents.appendPathColumns(raw, foldedName: name, isFolder: isFolder, to: &rows)
        // Byte for byte: decoding them would repair invalid UTF-8 and hide it.
        let fromRows = rows.cells.map { cell -> String in
            guard case .text(let start, let count) = cell else { return "not text" }
            let bytes = Array(rows.bytes[Int(start)..<Int(start + count)])
            return String(validating: bytes, as: UTF8.self) ?? "invalid UTF-8: \(bytes)"
        }
        return [values.map { String.fromDatabaseValue($0) ?? "not text" }, fromRows]
    }

    static func expected(_ raw: RawPath, isFolder: Bool) -> [String] {
        [raw.readable, ParentFolderCache.fold(raw.readable), raw.fileURLString(isFolder: isFolder)]
    }

    @Test(arguments: [
        "/r/c/Documents/a.txt", "/r/c/Documents/Ärger/Éé.TXT", "/r/c/Documents/cafe\u{301}/NAÏVE", "/r/c/x",
        "/r/c/Documents/\u{301}leading-mark", "/r/c/Documents/ΣΊΣΥΦΟΣ/ﬁle", "/r/c/Documents/İstanbul/ß",
        "/r/c/Documents/a b%/#?.txt",
    ])
    func theColumnsOfAPathAreThoseOfTheWholePath(_ path: String) {
        var parents = ParentFolderCache()
        let raw = RawPath(path)
        for _ in 0..<2 {  // the second time from the cache
            for isFolder in [false, true] {
                for columns in Self.columns(&parents, raw, isFolder: isFolder) {
                    #expect(columns == Self.expected(raw, isFolder: isFolder))
                }
            }
        }
    }

    @Test func invalidUTF8TheRootAndDoubledSlashesGiveWhatTheWholePathDoes() {
        var parents = ParentFolderCache()
        let paths: [[UInt8]] = [
            Array("/r/c/D/".utf8) + [0xFF, 0x41], [0x2F], Array("/top".utf8), Array("/r/".utf8) + [0xC3] + Array("/B".utf8),
            Array("/r/c/D/x".utf8), Array("/r/c//D/x".utf8), Array("/r/c/D//x".utf8), Array("/r/c/D/".utf8),
            Array("/r/c/D/é".utf8), Array("/r/c/D/".utf8) + [0xE9],
        ]
        for bytes in paths {
            let raw = RawPath(bytes: bytes)
            for isFolder in [false, true] {
                for columns in Self.columns(&parents, raw, isFolder: isFolder) {
                    #expect(columns == Self.expected(raw, isFolder: isFolder), "\(bytes)")
                }
            }
        }
    }
}
