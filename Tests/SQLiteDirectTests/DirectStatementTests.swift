import Foundation
import GRDB
import Testing

@testable import SQLiteDirect

/// Values bound by `DirectStatement` read back as GRDB would have stored them, and SQLite's
/// errors reach the caller with the statement's SQL.
@Suite struct DirectStatementTests {
    private static func database() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, text TEXT, number INTEGER, bytes BLOB, real REAL, UNIQUE (text))")
        }
        return queue
    }

    @Test func textIntegersAndBlobsReadBackAsBound() throws {
        let queue = try Self.database()
        let texts = ["plain", "é and 日本", "", "a\u{0}b", String(repeating: "long ", count: 200)]
        try queue.write { db in
            let insert = DirectStatement(try db.makeStatement(sql: "INSERT INTO t (id, text, number, bytes) VALUES (?, ?, ?, ?)"), in: db)
            for (id, text) in texts.enumerated() {
                try insert.bind(Int64(id), at: 1)
                try insert.bind(text, at: 2)
                try insert.bind(id == 0 ? Int64.min : Int64.max - Int64(id), at: 3)
                try insert.bind(blob: Data(text.utf8), at: 4)
                try insert.run()  // runs again below: it must have been reset and cleared
            }
        }
        // Text read as its bytes: GRDB reads text as a C string, which ends at a NUL.
        let rows = try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT CAST(text AS BLOB), number, bytes, typeof(text) FROM t ORDER BY id")
        }
        #expect(rows.map { $0[0] as Data? ?? Data() } == texts.map { Data($0.utf8) })
        #expect(rows.allSatisfy { $0[3] as String == "text" })
        #expect(rows.map { $0[1] as Int64 } == [Int64.min] + (1..<Int64(texts.count)).map { Int64.max - $0 })
        #expect(rows.map { $0[2] as Data } == texts.map { Data($0.utf8) })
        // The empty text and blob are empty values, not NULL.
        #expect(rows[2][0] as Data? == Data())
        #expect(rows[2][2] as Data? == Data())
    }

    @Test func nilBindsNullAndTheNextRunStartsClear() throws {
        let queue = try Self.database()
        try queue.write { db in
            let insert = DirectStatement(try db.makeStatement(sql: "INSERT INTO t (text, number) VALUES (?, ?)"), in: db)
            try insert.bind("first", at: 1)
            try insert.bind(Int64(7), at: 2)
            try insert.run()
            try insert.bind(nil as String?, at: 1)  // the number is not bound again: cleared, so NULL
            try insert.run()
        }
        let rows = try queue.read { db in try Row.fetchAll(db, sql: "SELECT text, number FROM t ORDER BY id") }
        #expect(rows.count == 2)
        #expect(rows[1][0] as String? == nil)
        #expect(rows[1][1] as Int64? == nil)
    }

    @Test func databaseValuesOfEveryKindBind() throws {
        let queue = try Self.database()
        let values: [DatabaseValue] = ["text".databaseValue, 42.databaseValue, Data([0, 1, 2]).databaseValue, 2.5.databaseValue]
        try queue.write { db in
            let insert = DirectStatement(try db.makeStatement(sql: "INSERT INTO t (text, number, bytes, real) VALUES (?, ?, ?, ?)"), in: db)
            for (index, value) in zip(CInt(1)..., values) { try insert.bind(value, at: index) }
            try insert.run()
        }
        let row = try queue.read { db in try Row.fetchOne(db, sql: "SELECT text, number, bytes, real FROM t") }
        #expect(row?[0] as String? == "text")
        #expect(row?[1] as Int64? == 42)
        #expect(row?[2] as Data? == Data([0, 1, 2]))
        #expect(row?[3] as Double? == 2.5)
    }

    @Test func aFailingRunThrowsSQLitesErrorWithTheStatement() throws {
        let queue = try Self.database()
        try queue.write { db in
            let sql = "INSERT INTO t (text) VALUES (?)"
            let insert = DirectStatement(try db.makeStatement(sql: sql), in: db)
            try insert.bind("same", at: 1)
            try insert.run()
            try insert.bind("same", at: 1)
            let error = #expect(throws: DatabaseError.self) { try insert.run() }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            #expect(error?.sql == sql)
            #expect(error?.message?.contains("UNIQUE") == true)
            // Reset after the failure: the statement runs again.
            try insert.bind("other", at: 1)
            try insert.run()
        }
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 2)
    }

    @Test func aParameterOutOfRangeIsRefused() throws {
        let queue = try Self.database()
        try queue.write { db in
            let insert = DirectStatement(try db.makeStatement(sql: "INSERT INTO t (text) VALUES (?)"), in: db)
            let error = #expect(throws: DatabaseError.self) { try insert.bind("x", at: 2) }
            #expect(error?.resultCode == .SQLITE_RANGE)
        }
    }
}
