import Foundation
import GRDB
import RawPaths
import Testing

@testable import MetadataIndex

/// A bulk load's rows built ahead (`NewRows`, bound in place from one buffer) must store
/// exactly what an upsert of the same items stores: every column, its storage class
/// (empty text and blobs included), and the type trees.
@Suite struct NewRowsTests {
    /// Items of every shape a scan meets: the container's own row (empty path and name),
    /// folders, names that are not valid UTF-8 or hold a newline, a symlink with its
    /// target, no birth time, negative and large integers, two content types in turn.
    static func items() -> [ItemSnapshot] {
        var items: [ItemSnapshot] = []
        func add(_ bytes: [UInt8], kind: FileSignature.Kind = .file, type: String = "public.plain-text", change: (inout ItemSnapshot) -> Void = { _ in }) {
            var item = IndexFixture.item("x", kind: kind, type: type)
            item.relativePath = RawPath(bytes: bytes)
            item.absolutePath = IndexFixture.root.appending("iCloud~org~ubiquity~Default").appending(item.relativePath)
            item.contentPending = true
            change(&item)
            items.append(item)
        }
        add([], kind: .folder)
        add(Array("Documents".utf8), kind: .folder)
        add(Array("Documents/a b.txt".utf8)) { $0.created = nil }
        add(Array("Documents/bad-\u{FF}".utf8) + [0xFF, 0xFE] + Array(".txt".utf8), type: "public.data")
        add(Array("Documents/line\nbreak.md".utf8)) { $0.signature.size = Int64.max }
        add(Array("Documents/link".utf8), kind: .symlink, type: "public.symlink") { $0.symlinkTarget = Array("../../outside\u{0}x".utf8) }
        add(Array("Documents/Résumé".utf8), kind: .folder)
        add(Array("Documents/Résumé/%23?.txt".utf8)) {
            $0.signature.device = UInt64.max
            $0.signature.modifiedNanoseconds = -1
            $0.readError = "unreadable"
        }
        for n in 0..<40 { add(Array("data/f\(n).bin".utf8), type: n % 2 == 0 ? "public.data" : "public.plain-text") }
        return items
    }

    static func dump(_ fixture: IndexFixture) throws -> (items: [Row], types: [Row], trees: [Row]) {
        try fixture.index.pool.read { db in
            let columns = try db.columns(in: "items").map(\.name)
            let typed = columns.map { "\($0), typeof(\($0)) AS \($0)_type" }.joined(separator: ", ")
            return (
                try Row.fetchAll(db, sql: "SELECT * FROM items ORDER BY id"),
                try Row.fetchAll(db, sql: "SELECT \(typed) FROM items ORDER BY id"),
                try Row.fetchAll(db, sql: "SELECT * FROM type_trees ORDER BY content_type, position"))
        }
    }

    @Test(arguments: [1, 3, 100]) func insertedRowsEqualUpsertedOnes(batchSize: Int) throws {
        let items = Self.items()
        let upserted = try IndexFixture()
        defer { upserted.remove() }
        try upserted.index.applyInOneTransaction(container: IndexFixture.container) { load in
            try load.apply(items.map(IndexChange.upsert))
        }
        let inserted = try IndexFixture()
        defer { inserted.remove() }
        try inserted.index.applyInOneTransaction(container: IndexFixture.container) { load in
            #expect(load.containerIsNew)
            var builder = NewRows.Builder()
            for item in items {
                builder.append(item)
                if builder.rows.count == batchSize { try load.insert(builder.take()) }
            }
            try load.insert(builder.take())
        }
        let (expected, actual) = (try Self.dump(upserted), try Self.dump(inserted))
        #expect(actual.items.count == items.count)
        #expect(actual.items == expected.items)
        #expect(actual.types == expected.types)
        #expect(actual.trees == expected.trees)
        #expect(actual.trees.isEmpty == false)
    }

    /// Each batch names each content type once, and counts its rows and their kinds.
    @Test func aBatchKeepsKindsAndEachTypeOnce() {
        var builder = NewRows.Builder()
        for item in Self.items() { builder.append(item) }
        let rows = builder.take()
        #expect(rows.count == Self.items().count)
        #expect(rows.kinds == Self.items().map(\.signature.kind))
        #expect(rows.types.map(\.type) == ["public.folder", "public.plain-text", "public.data", "public.symlink"])
        #expect(rows.cells.count == rows.count * IndexWriter.insertedColumns.count)
        #expect(builder.take().isEmpty)
    }
}
