import Foundation
import GRDB
import GRDBSQLite

/// A prepared statement whose values are bound straight onto SQLite's statement, one by
/// one, then run: for the statements a hot loop runs once per row (a first sync of
/// 100,000 files records 100,000 base rows and journal lines, and marks as many items).
///
/// GRDB takes values only as `StatementArguments`: an array of existentials, each value
/// converted to a `DatabaseValue` (a String copied into a box), validated and then bound
/// as a C string (a NUL-terminated copy, then `strlen`). Bound here, text goes from its
/// own UTF-8 bytes with its length, and integers as they are.
///
/// For one writer's connection only, between the statement's preparation and the end of
/// its transaction: GRDB's own view of the statement's bindings is never used.
public struct DirectStatement {
    private let statement: Statement
    private let handle: OpaquePointer
    private let db: Database

    public init(_ statement: Statement, in db: Database) {
        self.statement = statement
        handle = statement.sqliteStatement
        self.db = db
    }

    /// Binds `text` (NULL when nil) to parameter `index` (from 1).
    public func bind(_ text: String?, at index: CInt) throws {
        guard var text else { return try check(sqlite3_bind_null(handle, index)) }
        try check(
            text.withUTF8 { bytes in
                guard let start = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_text(handle, index, "", 0, Self.transient) }
                return start.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_bind_text(handle, index, $0, CInt(bytes.count), Self.transient)
                }
            })
    }

    /// Binds `value` to parameter `index`: text and blobs from their own bytes, other
    /// values as GRDB binds them.
    public func bind(_ value: DatabaseValue, at index: CInt) throws {
        switch value.storage {
        case .string(let text): try bind(text, at: index)
        case .blob(let data): try bind(blob: data, at: index)
        default: try check(value.bind(to: handle, at: index))
        }
    }

    /// Binds `bytes` as a blob (an empty one when they are) to parameter `index`.
    public func bind(blob bytes: some DataProtocol & ContiguousBytes, at index: CInt) throws {
        try check(
            bytes.withUnsafeBytes { buffer in
                // A null address would bind NULL, not an empty blob.
                guard let start = buffer.baseAddress, !buffer.isEmpty else { return sqlite3_bind_zeroblob(handle, index, 0) }
                return sqlite3_bind_blob(handle, index, start, CInt(buffer.count), Self.transient)
            })
    }

    /// Binds `integer` (NULL when nil) to parameter `index`.
    public func bind(_ integer: Int64?, at index: CInt) throws {
        guard let integer else { return try check(sqlite3_bind_null(handle, index)) }
        try check(sqlite3_bind_int64(handle, index, integer))
    }

    /// Runs the statement with the values bound, then resets it and clears them.
    public func run() throws {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        try check(sqlite3_step(handle), expecting: SQLITE_DONE)
    }

    /// SQLITE_TRANSIENT: SQLite copies the bytes before the bind returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private func check(_ code: CInt, expecting expected: CInt = SQLITE_OK) throws {
        guard code != expected else { return }
        throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: statement.sql)
    }
}
