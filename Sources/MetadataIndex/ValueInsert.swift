import GRDB
import GRDBSQLite
import SQLiteDirect

/// An INSERT run with values bound straight onto SQLite's statement: one row's
/// `DatabaseValue`s, or a whole batch of rows built ahead (`NewRows`). GRDB takes arguments only as `StatementArguments`, which are built
/// through a generic sequence map that is not specialized across modules, then validated
/// and copied again at each execution: for the 23 columns of 100,000 new rows that was a
/// third of the row-making thread's time and a sixth of the writer's. This statement is
/// prepared for the writer alone, so GRDB's view of its bindings never matters. Nothing
/// observes the index's transactions (GRDB's observers are what its own execution adds).
final class ValueInsert {
    private let statement: Statement
    private let direct: DirectStatement
    private let db: Database

    init(_ db: Database, sql: String) throws {
        self.db = db
        statement = try db.makeStatement(sql: sql)
        direct = DirectStatement(statement, in: db)
    }

    func execute(_ values: [DatabaseValue]) throws {
        for (index, value) in zip(CInt(1)..., values) { try direct.bind(value, at: index) }
        try direct.run()
    }

    /// Inserts every row of `rows`, in order, calling `inserted` with each new row's id.
    /// Text and blobs are bound in place (SQLITE_STATIC): the batch's buffer outlives each
    /// step, and the bindings are cleared before the buffer is let go.
    func execute(_ rows: NewRows, inserted: (_ id: Int64) throws -> Void) throws {
        let handle = statement.sqliteStatement
        let dbHandle = db.sqliteConnection
        try rows.bytes.withUnsafeBufferPointer { buffer in
            defer { sqlite3_clear_bindings(handle) }
            for row in 0..<rows.count {
                defer { sqlite3_reset(handle) }
                for (index, cell) in zip(CInt(1)..., rows.cells(ofRow: row)) {
                    let code = Self.bind(cell, from: buffer, to: handle, at: index)
                    guard code == SQLITE_OK else { throw error(code) }
                }
                let code = sqlite3_step(handle)
                guard code == SQLITE_DONE else { throw error(code) }
                try inserted(sqlite3_last_insert_rowid(dbHandle))
            }
        }
    }

    private static func bind(_ cell: NewRows.Cell, from buffer: UnsafeBufferPointer<UInt8>, to handle: OpaquePointer, at index: CInt) -> CInt {
        switch cell {
        case .null:
            return sqlite3_bind_null(handle, index)
        case .integer(let value):
            return sqlite3_bind_int64(handle, index, value)
        case .real(let value):
            return sqlite3_bind_double(handle, index, value)
        case .text(let start, let count):
            // Copied (the literal's address lasts only for the call): an empty text has no
            // address in the batch, which may hold no bytes at all.
            guard count > 0, let base = buffer.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, transient) }
            return (base + Int(start)).withMemoryRebound(to: CChar.self, capacity: Int(count)) {
                sqlite3_bind_text(handle, index, $0, count, nil)
            }
        case .blob(let start, let count):
            // A null address would bind NULL, not an empty blob.
            guard count > 0, let base = buffer.baseAddress else { return sqlite3_bind_zeroblob(handle, index, 0) }
            return sqlite3_bind_blob(handle, index, base + Int(start), count, nil)
        }
    }

    /// SQLITE_TRANSIENT: SQLite copies the bytes before the bind returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private func error(_ code: CInt) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: statement.sql)
    }
}
