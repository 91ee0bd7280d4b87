import Foundation
import GRDB
import RawPaths

enum IndexReader {
    static func signatures(_ db: Database, container: String, under path: RawPath) throws -> [RawPath: FileSignature] {
        let (low, high) = IndexWriter.subtreeRange(path)
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT rel, kind, device, inode, size, mtime_ns, ctime_ns FROM items
                WHERE container = ? AND (rel = ? OR (rel > ? AND rel < ?))
                """,
            arguments: [container, Data(path.bytes), path.isEmpty ? Data() : low, path.isEmpty ? Data([0xFF]) : high])
        var result: [RawPath: FileSignature] = [:]
        while let row = try rows.next() {
            result[RawPath(bytes: row["rel"] as Data)] = signature(row)
        }
        return result
    }

    static func signature(_ row: Row) -> FileSignature {
        FileSignature(
            kind: FileSignature.Kind(rawValue: row["kind"]) ?? .other,
            device: UInt64(bitPattern: row["device"]), inode: UInt64(bitPattern: row["inode"]),
            size: row["size"], modifiedNanoseconds: row["mtime_ns"], changedNanoseconds: row["ctime_ns"])
    }
}
