import APIModel
import Foundation
import GRDB
@testable import MetadataIndex
import RawPaths
import Synchronization
import Testing

/// The ubiquity attributes a sync pass records: uploaded, uploading, conflicts, and whether
/// the local copy is the mirror's current version.
@Suite struct SyncStateTests {
    static let names = ["synced.txt", "edited.txt", "stale.txt", "fought.txt"]

    func fixture() throws -> IndexFixture {
        let fixture = try IndexFixture()
        try fixture.index.apply(Self.names.map { .upsert(IndexFixture.item("Documents/" + $0)) })
        return fixture
    }

    func attributes(_ fixture: IndexFixture, _ name: String) throws -> [String: AttributeValue] {
        try #require(try fixture.index.item(container: IndexFixture.container, relativePath: RawPath("Documents/" + name))).attributes
    }

    func paths(_ names: String...) -> [RawPath] { names.map { RawPath("Documents/" + $0) } }

    @Test func aFreshItemIsCurrentAndNeitherUploadedNorUploading() throws {
        let fixture = try fixture()
        defer { fixture.remove() }
        let item = try attributes(fixture, "synced.txt")
        #expect(item["NSMetadataUbiquitousItemIsUploadedKey"] == .bool(false))
        #expect(item["NSMetadataUbiquitousItemIsUploadingKey"] == .bool(false))
        #expect(item["NSMetadataUbiquitousItemDownloadingStatusKey"] == .string("NSMetadataUbiquitousItemDownloadingStatusCurrent"))
    }

    @Test func eachItemGetsTheAttributesOfItsState() throws {
        let fixture = try fixture()
        defer { fixture.remove() }
        try fixture.index.applySyncState(
            container: IndexFixture.container,
            SyncedState(
                uploaded: paths("synced.txt", "stale.txt", "fought.txt"), conflicted: paths("fought.txt"),
                uploading: paths("edited.txt"), outdated: paths("stale.txt")))

        let synced = try attributes(fixture, "synced.txt")
        #expect(synced["NSMetadataUbiquitousItemIsUploadedKey"] == .bool(true))
        #expect(synced["NSMetadataUbiquitousItemIsUploadingKey"] == .bool(false))
        #expect(synced["NSMetadataUbiquitousItemPercentUploadedKey"] == .double(100))
        #expect(synced["NSMetadataUbiquitousItemDownloadingStatusKey"] == .string("NSMetadataUbiquitousItemDownloadingStatusCurrent"))
        #expect(synced["NSMetadataUbiquitousItemPercentDownloadedKey"] == .double(100))
        #expect(synced["NSMetadataUbiquitousItemIsDownloadingKey"] == .bool(false))

        let edited = try attributes(fixture, "edited.txt")
        #expect(edited["NSMetadataUbiquitousItemIsUploadedKey"] == .bool(false))
        #expect(edited["NSMetadataUbiquitousItemIsUploadingKey"] == .bool(true))
        #expect(edited["NSMetadataUbiquitousItemPercentUploadedKey"] == .double(0))

        let stale = try attributes(fixture, "stale.txt")
        #expect(stale["NSMetadataUbiquitousItemDownloadingStatusKey"] == .string("NSMetadataUbiquitousItemDownloadingStatusDownloaded"))
        #expect(stale["NSMetadataUbiquitousItemPercentDownloadedKey"] == .double(0))
        #expect(stale["NSMetadataUbiquitousItemIsUploadedKey"] == .bool(true))

        #expect(try attributes(fixture, "fought.txt")["NSMetadataUbiquitousItemHasUnresolvedConflictsKey"] == .bool(true))
    }

    @Test func predicatesFindThemThroughTheCompiledSQL() throws {
        let fixture = try fixture()
        defer { fixture.remove() }
        try fixture.index.applySyncState(
            container: IndexFixture.container,
            SyncedState(uploaded: paths("synced.txt", "stale.txt"), conflicted: [], uploading: paths("edited.txt"), outdated: paths("stale.txt")))
        #expect(try fixture.query("NSMetadataUbiquitousItemIsUploadingKey == YES") == ["edited.txt"])
        #expect(try fixture.query("NSMetadataUbiquitousItemIsUploadedKey == YES").sorted() == ["stale.txt", "synced.txt"])
        #expect(try fixture.query(#"NSMetadataUbiquitousItemDownloadingStatusKey == "NSMetadataUbiquitousItemDownloadingStatusDownloaded""#) == ["stale.txt"])
        #expect(try fixture.query("NSMetadataUbiquitousItemPercentDownloadedKey < 100") == ["stale.txt"])
    }

    @Test func theNextPassClearsWhatItPublishedAndDownloaded() throws {
        let fixture = try fixture()
        defer { fixture.remove() }
        try fixture.index.applySyncState(
            container: IndexFixture.container,
            SyncedState(uploaded: paths("stale.txt"), conflicted: [], uploading: paths("edited.txt"), outdated: paths("stale.txt")))
        try fixture.index.applySyncState(
            container: IndexFixture.container, SyncedState(uploaded: paths("edited.txt", "stale.txt"), conflicted: []))
        #expect(try fixture.query("NSMetadataUbiquitousItemIsUploadingKey == YES").isEmpty)
        #expect(try fixture.query(#"NSMetadataUbiquitousItemDownloadingStatusKey == "NSMetadataUbiquitousItemDownloadingStatusCurrent""#).count == 4)
    }

    @Test func withTheMirrorUnreadableTheDownloadingAttributesStayAndTheReasonShows() throws {
        let fixture = try fixture()
        defer { fixture.remove() }
        try fixture.index.applySyncState(
            container: IndexFixture.container, SyncedState(uploaded: paths("stale.txt"), conflicted: [], outdated: paths("stale.txt")))
        try fixture.index.applySyncState(
            container: IndexFixture.container,
            SyncedState(uploaded: paths("stale.txt"), conflicted: [], uploading: paths("edited.txt"), outdated: nil, uploadError: "mirror gone"))
        let stale = try attributes(fixture, "stale.txt")
        #expect(stale["NSMetadataUbiquitousItemDownloadingStatusKey"] == .string("NSMetadataUbiquitousItemDownloadingStatusDownloaded"))
        #expect(stale["NSMetadataUbiquitousItemUploadingErrorKey"] == .null)
        let edited = try attributes(fixture, "edited.txt")
        #expect(edited["NSMetadataUbiquitousItemIsUploadingKey"] == .bool(true))
        #expect(edited["NSMetadataUbiquitousItemUploadingErrorKey"] == .string("mirror gone"))
    }

    /// A download that failed leaves its item outdated, saying why; the next pass that
    /// brings the version clears it.
    @Test func aFailedDownloadShowsItsErrorUntilTheVersionArrives() throws {
        let fixture = try fixture()
        defer { fixture.remove() }
        var failed = SyncedState(uploaded: paths("stale.txt", "synced.txt"), conflicted: [], outdated: paths("stale.txt"))
        failed.downloadErrors = [RawPath("Documents/stale.txt"): "rename: Permission denied"]
        try fixture.index.applySyncState(container: IndexFixture.container, failed)
        #expect(try attributes(fixture, "stale.txt")["NSMetadataUbiquitousItemDownloadingErrorKey"] == .string("rename: Permission denied"))
        #expect(try attributes(fixture, "synced.txt")["NSMetadataUbiquitousItemDownloadingErrorKey"] == .null)
        #expect(try fixture.query("NSMetadataUbiquitousItemDownloadingErrorKey != nil") == ["stale.txt"])

        try fixture.index.applySyncState(container: IndexFixture.container, SyncedState(uploaded: paths("stale.txt", "synced.txt"), conflicted: []))
        #expect(try attributes(fixture, "stale.txt")["NSMetadataUbiquitousItemDownloadingErrorKey"] == .null)
    }

    @Test func aStateThatChangesNoAttributeUpdatesNoRow() throws {
        let fixture = try fixture()
        defer { fixture.remove() }
        let state = SyncedState(uploaded: paths("synced.txt", "stale.txt"), conflicted: paths("fought.txt"), uploading: paths("edited.txt"))
        try fixture.index.applySyncState(container: IndexFixture.container, state)
        // Triggers count the rows each later state writes (the attributes' table: `SyncColumns`).
        let counter = try DatabaseQueue(path: fixture.folder + "/index.sqlite")
        try counter.write { db in
            try db.execute(sql: """
                CREATE TABLE updated(id INTEGER);
                CREATE TRIGGER count_updates AFTER UPDATE ON item_sync BEGIN INSERT INTO updated VALUES (new.id); END;
                CREATE TRIGGER count_inserts AFTER INSERT ON item_sync BEGIN INSERT INTO updated VALUES (new.id); END
                """)
        }
        func updated() throws -> Int { try counter.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM updated") ?? 0 } }
        let again = try fixture.index.applySyncState(container: IndexFixture.container, state)  // a full pass that found nothing new
        #expect(try updated() == 0)
        #expect(again.isEmpty, "nothing for the live queries either")
        let changes = try fixture.index.applySyncState(
            container: IndexFixture.container, SyncedState(uploaded: paths("synced.txt", "stale.txt", "edited.txt"), conflicted: []))
        #expect(try updated() > 0)
        let touched = try counter.read { try String.fetchSet($0, sql: "SELECT fs_name FROM items WHERE id IN (SELECT id FROM updated)") }
        #expect(touched == ["edited.txt", "fought.txt"], "uploaded now, and no longer in conflict")
        #expect(changes.touched.count == 2)
    }

    /// Rows that get the same attributes are updated a run of ids at a time: a row between
    /// two such rows whose own state differs breaks the run.
    @Test func anItemBetweenRowsThatChangeAlikeKeepsItsOwnState() throws {
        let fixture = try fixture()
        defer { fixture.remove() }
        try fixture.index.applySyncState(
            container: IndexFixture.container, SyncedState(uploaded: paths("synced.txt", "edited.txt", "stale.txt", "fought.txt"), conflicted: []))
        let changes = try fixture.index.applySyncState(
            container: IndexFixture.container, SyncedState(uploaded: paths("stale.txt"), conflicted: [], uploading: paths("synced.txt", "edited.txt", "fought.txt")))
        #expect(try fixture.query("NSMetadataUbiquitousItemIsUploadedKey == YES") == ["stale.txt"])
        #expect(try Set(fixture.query("NSMetadataUbiquitousItemIsUploadingKey == YES")) == ["synced.txt", "edited.txt", "fought.txt"])
        #expect(changes.touched.count == 3)
    }

    @Test func runsJoinConsecutiveIdsWithTheSameAttributesOnly() {
        let uploaded = SyncStateUpdate.Attributes(
            isUploaded: true, isUploading: false, hasConflicts: false, percentUploaded: 100, uploadingError: nil, downloading: nil)
        var conflicted = uploaded
        conflicted.hasConflicts = true
        let runs = SyncStateUpdate.runs(of: [(7, uploaded), (3, uploaded), (4, uploaded), (5, conflicted), (6, uploaded), (9, uploaded)])
        #expect(runs.map(\.ids) == [3...4, 5...5, 6...7, 9...9])
        #expect(runs.map(\.attributes) == [uploaded, conflicted, uploaded, uploaded])
    }

    @Test func aLimitedStateLeavesOtherSubtreesAlone() throws {
        let fixture = try fixture()
        defer { fixture.remove() }
        try fixture.index.applySyncState(
            container: IndexFixture.container, SyncedState(uploaded: [], conflicted: [], uploading: paths("synced.txt", "edited.txt")))
        try fixture.index.applySyncState(
            container: IndexFixture.container,
            SyncedState(uploaded: paths("edited.txt"), conflicted: [], limitedTo: paths("edited.txt")))
        #expect(try fixture.query("NSMetadataUbiquitousItemIsUploadingKey == YES") == ["synced.txt"])
    }

    @Test func aLimitedStateCoversAFolderAndEverythingBelowItButNoNameThatOnlyStartsAlike() throws {
        let fixture = try fixture()
        defer { fixture.remove() }
        try fixture.index.apply(["Notes/a.txt", "Notes/deep/b.txt", "Notes.txt", "Notes0/c.txt"].map {
            .upsert(IndexFixture.item("Documents/" + $0))
        } + [.upsert(IndexFixture.item("Documents/Notes", kind: .folder)), .upsert(IndexFixture.item("Documents/Notes/deep", kind: .folder))])
        try fixture.index.applySyncState(
            container: IndexFixture.container,
            SyncedState(uploaded: [], conflicted: [], uploading: paths("Notes.txt", "Notes0/c.txt", "synced.txt")))
        try fixture.index.applySyncState(
            container: IndexFixture.container,
            SyncedState(
                uploaded: paths("Notes", "Notes/a.txt", "Notes/deep", "Notes/deep/b.txt", "synced.txt"), conflicted: [],
                uploading: [], limitedTo: paths("Notes", "synced.txt")))
        #expect(try Set(fixture.query("NSMetadataUbiquitousItemIsUploadedKey == YES")) == ["Notes", "a.txt", "deep", "b.txt", "synced.txt"])
        #expect(try Set(fixture.query("NSMetadataUbiquitousItemIsUploadingKey == YES")) == ["Notes.txt", "c.txt"], "outside the roots: left alone")
    }

    @Test func marksSetExactlyTheItemsNamedAndReportTheRowsTheyChanged() throws {
        let fixture = try fixture()
        defer { fixture.remove() }
        try fixture.index.apply([.upsert(IndexFixture.item("Documents/Notes", kind: .folder)), .upsert(IndexFixture.item("Documents/Notes/a.txt"))])
        #expect(try mark(fixture, paths("Notes", "synced.txt", "gone.txt"), uploaded: false).touched.count == 2)
        #expect(try Set(fixture.query("NSMetadataUbiquitousItemIsUploadingKey == YES")) == ["Notes", "synced.txt"], "not what is below")
        #expect(try mark(fixture, paths("synced.txt"), uploaded: false).isEmpty, "nothing changed")
        #expect(try mark(fixture, paths("synced.txt"), uploaded: true).touched.count == 1)
        let synced = try attributes(fixture, "synced.txt")
        #expect(synced["NSMetadataUbiquitousItemIsUploadedKey"] == .bool(true))
        #expect(synced["NSMetadataUbiquitousItemIsUploadingKey"] == .bool(false))
        #expect(synced["NSMetadataUbiquitousItemPercentUploadedKey"] == .double(100))
    }

    @Test func aRemovedItemTakesItsAttributesWithIt() throws {
        let fixture = try fixture()
        defer { fixture.remove() }
        try fixture.index.apply([.upsert(IndexFixture.item("Documents/last.txt"))])
        try fixture.index.applySyncState(
            container: IndexFixture.container, SyncedState(uploaded: paths("last.txt"), conflicted: paths("last.txt")))
        try fixture.index.apply([.remove(container: IndexFixture.container, relativePath: RawPath("Documents/last.txt"))])
        // SQLite gives the next row the id the last row had: it must not find that row's attributes.
        try fixture.index.apply([.upsert(IndexFixture.item("Documents/next.txt"))])
        let next = try attributes(fixture, "next.txt")
        #expect(next["NSMetadataUbiquitousItemIsUploadedKey"] == .bool(false))
        #expect(next["NSMetadataUbiquitousItemHasUnresolvedConflictsKey"] == .bool(false))
        let rows = try fixture.index.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM item_sync") }
        #expect(rows == 0)
    }

    @Test func anIndexWithTheAttributesInItsItemsKeepsThemInTheirOwnTable() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-v3-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/index.sqlite"
        // An index as the schema before v4 left it: the attributes in `items` (rows written by hand).
        let old = try DatabaseQueue(path: path)
        try Schema.migrator().migrate(old, upTo: "v3: type trees by content type, deferred content")
        try old.write { db in
            let columns = "container, rel, scope, kind, fs_name, fs_name_fold, display_name, display_name_fold, path, path_fold, url, size, "
                + "content_type, device, inode, mtime_ns, ctime_ns, container_display_name"
            for name in ["plain.txt", "synced.txt", "stale.txt"] {
                try db.execute(
                    sql: "INSERT INTO items (\(columns)) VALUES (?, ?, 'Documents', 'file', ?, ?, ?, ?, ?, ?, ?, 1, 'public.plain-text', 1, 1, 1, 1, 'Default')",
                    arguments: [IndexFixture.container, Data("Documents/\(name)".utf8), name, name, name, name, "/r/\(name)", "/r/\(name)", "file:///r/\(name)"])
            }
            try db.execute(sql: "UPDATE items SET is_uploaded = 1, percent_uploaded = 100, has_conflicts = 1 WHERE fs_name = 'synced.txt'")
            try db.execute(sql: """
                UPDATE items SET downloading_status = 'NSMetadataUbiquitousItemDownloadingStatusDownloaded', percent_downloaded = 0,
                    is_uploading = 1, uploading_error = 'paused' WHERE fs_name = 'stale.txt'
                """)
            try db.execute(sql: "INSERT OR REPLACE INTO meta(key, value) VALUES ('root', '/r')")
        }
        let index = try MetadataIndex(path: path, root: IndexFixture.root)
        func attributes(_ name: String) throws -> [String: AttributeValue] {
            try #require(try index.item(container: IndexFixture.container, relativePath: RawPath("Documents/" + name))).attributes
        }
        let plain = try attributes("plain.txt")
        #expect(plain["NSMetadataUbiquitousItemIsUploadedKey"] == .bool(false))
        #expect(plain["NSMetadataUbiquitousItemDownloadingStatusKey"] == .string("NSMetadataUbiquitousItemDownloadingStatusCurrent"))
        let synced = try attributes("synced.txt")
        #expect(synced["NSMetadataUbiquitousItemIsUploadedKey"] == .bool(true))
        #expect(synced["NSMetadataUbiquitousItemPercentUploadedKey"] == .double(100))
        #expect(synced["NSMetadataUbiquitousItemHasUnresolvedConflictsKey"] == .bool(true))
        let stale = try attributes("stale.txt")
        #expect(stale["NSMetadataUbiquitousItemDownloadingStatusKey"] == .string("NSMetadataUbiquitousItemDownloadingStatusDownloaded"))
        #expect(stale["NSMetadataUbiquitousItemPercentDownloadedKey"] == .double(0))
        #expect(stale["NSMetadataUbiquitousItemIsUploadingKey"] == .bool(true))
        #expect(stale["NSMetadataUbiquitousItemUploadingErrorKey"] == .string("paused"))
        // Only the items whose attributes were set have a row; `items` has no such columns left.
        let (rows, columns) = try index.pool.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM item_sync"), try db.columns(in: "items").map(\.name))
        }
        #expect(rows == 2)
        #expect(!columns.contains("is_uploaded"))
        #expect(columns.contains("fs_name"))
    }

    /// `markUploads`, waited for.
    private func mark(_ fixture: IndexFixture, _ paths: [RawPath], uploaded: Bool) throws -> AppliedChanges {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Result<AppliedChanges, any Error>?>(nil)
        fixture.index.markUploads(container: IndexFixture.container, paths, uploaded: uploaded) { outcome in
            result.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0! }.get()
    }
}
