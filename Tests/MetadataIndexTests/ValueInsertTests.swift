import Foundation
import GRDB
import Testing

@testable import MetadataIndex

/// `ValueInsert` binds values straight onto SQLite's statement, outside GRDB's argument
/// handling: every value type must arrive as bound, a failure must throw with SQLite's
/// message and leave the statement usable for the next row.
@Suite struct ValueInsertTests {
    static func withTable(_ body: (Database) throws -> Void) throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (k TEXT UNIQUE NOT NULL, i INTEGER, r REAL, b BLOB, n TEXT)")
            try body(db)
        }
    }

    @Test func everyStorageClassArrivesAsBound() throws {
        try Self.withTable { db in
            let insert = try ValueInsert(db, sql: "INSERT INTO t (k, i, r, b, n) VALUES (?, ?, ?, ?, ?)")
            try insert.execute(["é\nx".databaseValue, Int64.min.databaseValue, 0.25.databaseValue,
                                Data([0, 0xFF]).databaseValue, .null])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM t"))
            #expect(row["k"] as String == "é\nx")
            #expect(row["i"] as Int64 == Int64.min)
            #expect(row["r"] as Double == 0.25)
            #expect(row["b"] as Data == Data([0, 0xFF]))
            #expect(row["n"] as String? == nil)
        }
    }

    /// Text and blobs are bound from their bytes with their length: empty ones stay empty
    /// (not NULL), a NUL inside text does not end it, and short strings (stored inline)
    /// arrive as long ones do.
    @Test func textAndBlobsArriveWithTheirExactBytes() throws {
        try Self.withTable { db in
            let insert = try ValueInsert(db, sql: "INSERT INTO t (k, b, n) VALUES (?, ?, ?)")
            let long = String(repeating: "résumé ", count: 40)
            try insert.execute(["".databaseValue, Data().databaseValue, "a\u{0}b".databaseValue])
            try insert.execute(["s".databaseValue, Data([1]).databaseValue, long.databaseValue])
            let rows = try Row.fetchAll(db, sql: "SELECT k, typeof(b) AS bt, length(b) AS bl, n, length(CAST(n AS BLOB)) AS nl FROM t ORDER BY k")
            #expect(rows.count == 2)
            #expect(rows[0]["k"] as String? == "")
            #expect(rows[0]["bt"] as String == "blob")
            #expect(rows[0]["bl"] as Int == 0)
            #expect(rows[0]["nl"] as Int == 3)
            #expect(rows[1]["n"] as String == long)
        }
    }

    @Test func aFailedInsertThrowsSQLitesMessageAndTheNextOneWorks() throws {
        try Self.withTable { db in
            let insert = try ValueInsert(db, sql: "INSERT INTO t (k, i) VALUES (?, ?)")
            try insert.execute(["a".databaseValue, 1.databaseValue])
            let error = #expect(throws: DatabaseError.self) { try insert.execute(["a".databaseValue, 2.databaseValue]) }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            #expect(error?.message?.contains("UNIQUE constraint failed: t.k") == true)
            #expect(error?.sql?.contains("INSERT INTO t") == true)
            try insert.execute(["b".databaseValue, .null])
            #expect(try Row.fetchAll(db, sql: "SELECT k, i FROM t ORDER BY k") == [["k": "a", "i": 1], ["k": "b", "i": nil]])
        }
    }
}
