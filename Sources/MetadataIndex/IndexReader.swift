import Foundation
import GRDB
import RawPaths

enum IndexReader {
    /// Up to `limit` signatures of the items at and below `path`, in path order, after the
    /// path `after` (from the start when nil). Reconciliation pages through a whole tree
    /// this way, merging it with the disk walk, rather than holding it in a map.
    static func signatures(_ db: Database, container: String, under path: RawPath, after: RawPath?, limit: Int) throws -> [IndexedSignature] {
        var result: [IndexedSignature] = []
        if after == nil, !path.isEmpty,
            let row = try Row.fetchOne(db.cachedStatement(sql: "\(signatureSelect) AND rel = ?"), arguments: [container, Data(path.bytes)])
        {
            result.append(IndexedSignature(relativePath: path, signature: signature(row)))
        }
        // The subtree is the range between `path/` and `path0` ('0' follows '/'); the whole
        // container has no upper bound (a raw name may start with any byte).
        let (low, high) = IndexWriter.subtreeRange(path)
        var start = Data(after?.bytes ?? [])
        if !path.isEmpty && !RawPath.precedes(Array(low), after?.bytes ?? []) { start = low }  // (`after` may be the root itself)
        let upper = path.isEmpty ? "" : "AND rel < ?"
        let arguments: StatementArguments = path.isEmpty ? [container, start, limit] : [container, start, high, limit]
        // Cached statements: live changes look up one small subtree per changed path.
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: "\(signatureSelect) AND rel > ? \(upper) ORDER BY rel LIMIT ?"), arguments: arguments)
        while let row = try rows.next() {
            result.append(IndexedSignature(relativePath: RawPath(bytes: row["rel"] as Data), signature: signature(row)))
        }
        return result
    }

    private static let signatureSelect = "SELECT rel, kind, device, inode, size, mtime_ns, ctime_ns FROM items WHERE container = ?"

    static func signature(_ row: Row) -> FileSignature {
        FileSignature(
            kind: FileSignature.Kind(rawValue: row["kind"]) ?? .other,
            device: UInt64(bitPattern: row["device"]), inode: UInt64(bitPattern: row["inode"]),
            size: row["size"], modifiedNanoseconds: row["mtime_ns"], changedNanoseconds: row["ctime_ns"])
    }
}
