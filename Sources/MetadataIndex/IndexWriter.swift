import APIModel
import Foundation
import GRDB
import PredicateKit
import RawPaths

/// Writes changes inside one transaction, with cached statements (100k upserts in one
/// transaction take about a second this way: LINUX-NOTES.md).
struct IndexWriter {
    let db: Database
    /// What the changes did to which rows, kept only while live queries need it (reading
    /// the rows a removal deletes costs as much as the deletion).
    var journal: AppliedChanges?
    /// The content types whose tree this writer has stored (once per type and transaction).
    private var storedTrees: Set<String> = []
    /// Every upsert inserts a new row (a bulk load into a new container): no need to look
    /// for an existing one first.
    private let insertsOnly: Bool
    private var parents = ParentFolderCache()
    /// The plain insert of new rows, prepared on first use.
    private var valueInsert: ValueInsert?

    init(db: Database, journal: AppliedChanges?, insertsOnly: Bool = false) {
        self.db = db
        self.journal = journal
        self.insertsOnly = insertsOnly
    }

    mutating func apply(_ change: IndexChange) throws {
        switch change {
        case .upsert(let item): try upsert(item)
        case .remove(let container, let path): try remove(container: container, path)
        case .move(let container, let from, let to, let absoluteTo): try move(container: container, from: from, to: to, absoluteTo: absoluteTo)
        case .fillContent(let item): try fillContent(item)
        }
    }

    /// Updates the item's row in place, or inserts it if the index has none. Not SQLite's
    /// upsert: an `INSERT … ON CONFLICT DO UPDATE … RETURNING` keeps a statement journal
    /// (every page it changes is copied to a temporary file first, in case it fails
    /// halfway), and it rewrote the name columns' index entries too. A lookup, then a
    /// one-row update of the columns that can change, needs neither: 250 edited rows of
    /// 100,000 wrote 8.8 MiB instead of 43 MiB (16 KiB pages, SQLite 3.40).
    private mutating func upsert(_ item: ItemSnapshot) throws {
        let values = Self.values(of: item, parents: &parents)
        guard !insertsOnly, let id = try existingRow(of: item) else { return try insert(item, values) }
        let update = try db.cachedStatement(sql: Self.updateSQL)
        try update.execute(arguments: StatementArguments(databaseValues: Self.updatedColumnIndexes.map { values[$0] } + [id.databaseValue]))
        try recordRest(of: item, id: id, replacing: true)
    }

    private func existingRow(of item: ItemSnapshot) throws -> Int64? {
        let statement = try db.cachedStatement(sql: "SELECT id FROM items WHERE container = ? AND rel = ?")
        return try Int64.fetchOne(statement, arguments: [item.container, Data(item.relativePath.bytes)])
    }

    /// Inserts new rows built ahead, a batch at a time: the container had no row when the
    /// writer began (`insertsOnly`). The rows have no text or diary entries; only the
    /// trees of their content types are stored beside them.
    mutating func insert(_ rows: NewRows) throws {
        precondition(insertsOnly, "new rows go into a container the index has no row of")
        for type in rows.types { try storeTree(type.tree, of: type.type) }
        try plainInsert().execute(rows) { id in journal?.recordTouch(id) }
    }

    /// A plain insert, for rows known to be new.
    private mutating func insert(_ item: ItemSnapshot, _ values: [DatabaseValue]) throws {
        try plainInsert().execute(values)
        try recordRest(of: item, id: db.lastInsertedRowID, replacing: false)
    }

    private mutating func plainInsert() throws -> ValueInsert {
        let insert = try valueInsert ?? ValueInsert(db, sql: Self.insertSQL)
        valueInsert = insert
        return insert
    }

    /// What an item stores beside its row: its type tree, text and diary entries. With
    /// `replacing`, the row had text and entries before, deleted first. A new row has none
    /// (deleting a row deletes them), nor has one still waiting for its content (the write
    /// that made it wait deleted them): the deletes are skipped there. Inside a
    /// transaction, a DELETE that may remove several rows or fire a trigger keeps a
    /// statement journal and makes every full-text table flush what it holds so far:
    /// inserting 20,000 texts took 1.01 s with a diary DELETE before each, 0.40 s without.
    private mutating func recordRest(of item: ItemSnapshot, id: Int64, replacing: Bool) throws {
        journal?.recordTouch(id)
        try storeTree(item.contentTypeTree, of: item.contentType)
        if replacing {
            try db.cachedStatement(sql: "DELETE FROM item_text WHERE rowid = ?").execute(arguments: [id])
            try deleteDiaryEntries(itemID: id)
        }
        try insertText(id: id, text: item.textContent)
        try insertDiaryEntries(itemID: id, entries: item.diaryEntries ?? [])
    }

    /// Stores the item's type tree under its content type. Rewritten (not ignored) the
    /// first time a transaction meets the type, in case a newer MIME database changed it.
    private mutating func storeTree(_ tree: [String], of contentType: String) throws {
        guard storedTrees.insert(contentType).inserted else { return }
        try db.cachedStatement(sql: "DELETE FROM type_trees WHERE content_type = ?").execute(arguments: [contentType])
        let insert = try db.cachedStatement(sql: "INSERT INTO type_trees(content_type, position, uti) VALUES (?, ?, ?)")
        for (position, uti) in tree.enumerated() {
            try insert.execute(arguments: [contentType, position, uti])
        }
    }

    /// Writes what reading the item's content found (type, text, diary entries, read
    /// error) into its row, if the row still waits for it under the same signature. Only
    /// the columns content decides are set: an upsert of the whole row also rewrote the
    /// row's entries in the name, size and date indexes, and made the content pass after
    /// a first scan cost about 100 µs per item, beside the first sync.
    private mutating func fillContent(_ item: ItemSnapshot) throws {
        guard let id = try pendingRow(of: item) else { return }
        try db.cachedStatement(sql: "UPDATE items SET content_type = ?, read_error = ?, content_pending = ? WHERE id = ?")
            .execute(arguments: [item.contentType, item.readError, item.contentPending, id])
        try recordRest(of: item, id: id, replacing: false)
    }

    /// The id of the item's row if it still waits for its content and still has the
    /// signature the content was read under.
    private func pendingRow(of item: ItemSnapshot) throws -> Int64? {
        let statement = try db.cachedStatement(sql: """
            SELECT id FROM items WHERE container = ? AND rel = ? AND content_pending = 1
                AND kind = ? AND device = ? AND inode = ? AND size = ? AND mtime_ns = ? AND ctime_ns = ?
            """)
        let signature = item.signature
        let arguments: StatementArguments = [
            item.container, Data(item.relativePath.bytes), signature.kind.rawValue, Int64(bitPattern: signature.device),
            Int64(bitPattern: signature.inode), signature.size, signature.modifiedNanoseconds, signature.changedNanoseconds,
        ]
        return try Int64.fetchOne(statement, arguments: arguments)
    }

    private func insertText(id: Int64, text: String?) throws {
        guard let text, !text.isEmpty else { return }
        try db.cachedStatement(sql: "INSERT INTO item_text(rowid, content) VALUES (?, ?)").execute(arguments: [id, Self.searchable(text)])
    }

    /// `text` with each NUL made a space: a String is bound as a C string, so the text
    /// after a NUL (a script with a binary tail) would not be indexed; a space separates
    /// words as the NUL did.
    static func searchable(_ text: String) -> String {
        guard text.utf8.contains(0) else { return text }
        return String(decoding: text.utf8.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
    }

    private mutating func remove(container: String, _ path: RawPath) throws {
        if path.isEmpty {
            try journalRemovals(where: "items.container = ?", [container])
            try db.cachedStatement(sql: "DELETE FROM items WHERE container = ?").execute(arguments: [container])
            return
        }
        let (low, high) = Self.subtreeRange(path)
        let arguments: [(any DatabaseValueConvertible)?] = [container, Data(path.bytes), low, high]
        try journalRemovals(where: "items.container = ? AND (items.rel = ? OR (items.rel > ? AND items.rel < ?))", arguments)
        try db.cachedStatement(sql: "DELETE FROM items WHERE container = ? AND (rel = ? OR (rel > ? AND rel < ?))")
            .execute(arguments: StatementArguments(arguments))
    }

    /// Records the rows about to leave their path, with their attributes as they are now.
    private mutating func journalRemovals(where condition: String, _ arguments: [(any DatabaseValueConvertible)?]) throws {
        guard journal != nil else { return }
        let rows = try Row.fetchCursor(
            db, sql: "SELECT \(ItemColumns.selectList) FROM \(ItemColumns.source) WHERE \(condition)", arguments: StatementArguments(arguments))
        while let row = try rows.next() {
            let item = try ItemColumns.resultItem(row, attributes: ItemColumns.namesWithoutText, db: db)
            journal?.recordRemoval(row["id"], before: item)
        }
    }

    /// Moves a folder's row and all rows below it, recomputing their path columns.
    private mutating func move(container: String, from: RawPath, to: RawPath, absoluteTo: RawPath) throws {
        try remove(container: container, to)
        let (low, high) = Self.subtreeRange(from)
        try journalRemovals(
            where: "items.container = ? AND (items.rel = ? OR (items.rel > ? AND items.rel < ?))", [container, Data(from.bytes), low, high])
        let rows = try Row.fetchAll(
            db, sql: "SELECT id, rel, kind FROM items WHERE container = ? AND (rel = ? OR (rel > ? AND rel < ?))",
            arguments: [container, Data(from.bytes), low, high])
        let update = try db.cachedStatement(sql: """
            UPDATE items SET rel = ?, scope = ?, fs_name = ?, fs_name_fold = ?, display_name = ?, display_name_fold = ?,
                path = ?, path_fold = ?, url = ? WHERE id = ?
            """)
        let containerFolder = absoluteTo.removingLastComponents(to.components.count)
        for row in rows {
            let oldRel = RawPath(bytes: row["rel"] as Data)
            let newRel = oldRel.rebased(from: from, to: to)
            var values = [Data(newRel.bytes).databaseValue, PathColumns.scope(of: newRel).databaseValue]
            PathColumns.appendTextColumns(
                relative: newRel, absolute: containerFolder.appending(newRel), isFolder: row["kind"] == "folder", parents: &parents,
                to: &values)
            values.append((row["id"] as Int64).databaseValue)
            try update.execute(arguments: StatementArguments(databaseValues: values))
            journal?.recordTouch(row["id"])
        }
    }

    /// Blob bounds of everything strictly below `path`: `path/` ≤ rel < `path0` ('0' follows '/').
    static func subtreeRange(_ path: RawPath) -> (Data, Data) {
        let bytes = path.bytes
        return (Data(bytes + [0x2F]), Data(bytes + [0x30]))
    }

    /// The columns `values(of:)` gives, in its order.
    static let insertedColumns = [
        "container", "rel", "scope", "kind", "fs_name", "fs_name_fold", "display_name", "display_name_fold", "path",
        "path_fold", "url", "size", "created", "modified", "content_type", "symlink_target", "device", "inode", "mtime_ns",
        "ctime_ns", "read_error", "container_display_name", "content_pending",
    ]

    /// The columns an existing row's update leaves alone: its identity and the names its
    /// path decides (the URL, which ends in '/' for a folder, follows the item's kind).
    private static let columnsOfThePath: Set = [
        "container", "rel", "scope", "fs_name", "fs_name_fold", "display_name", "display_name_fold", "path", "path_fold",
    ]

    static let insertSQL = """
        INSERT INTO items (\(insertedColumns.joined(separator: ", ")))
        VALUES (\(insertedColumns.map { _ in "?" }.joined(separator: ", ")))
        """

    private static let updatedColumnIndexes = insertedColumns.indices.filter { !columnsOfThePath.contains(insertedColumns[$0]) }

    static let updateSQL = """
        UPDATE items SET \(updatedColumnIndexes.map { "\(insertedColumns[$0]) = ?" }.joined(separator: ", ")) WHERE id = ?
        """

    /// The values of `insertedColumns`, in their order.
    static func values(of item: ItemSnapshot, parents: inout ParentFolderCache) -> [DatabaseValue] {
        var values: [DatabaseValue] = []
        values.reserveCapacity(insertedColumns.count)
        appendColumns(of: item, parents: &parents, to: &values)
        return values
    }

    /// Appends the values of `insertedColumns` to `sink`, in their order, each from its
    /// own type (an array of existentials cost as much again to convert).
    static func appendColumns<Sink: ColumnSink>(of item: ItemSnapshot, parents: inout ParentFolderCache, to sink: inout Sink) {
        let signature = item.signature
        sink.append(item.container)
        sink.appendBlob(item.relativePath.bytes)
        sink.append(PathColumns.scope(of: item.relativePath))
        sink.append(signature.kind.rawValue)
        PathColumns.appendTextColumns(
            relative: item.relativePath, absolute: item.absolutePath, isFolder: signature.kind == .folder, parents: &parents, to: &sink)
        sink.append(signature.size)
        sink.append(item.created)
        sink.append(item.modified)
        sink.append(item.contentType)
        sink.appendBlob(item.symlinkTarget)
        sink.append(Int64(bitPattern: signature.device))
        sink.append(Int64(bitPattern: signature.inode))
        sink.append(signature.modifiedNanoseconds)
        sink.append(signature.changedNanoseconds)
        sink.append(item.readError)
        sink.append(item.containerDisplayName)
        sink.append(Int64(item.contentPending ? 1 : 0))
    }
}

extension RawPath {
    func removingLastComponents(_ count: Int) -> RawPath {
        var result = self
        for _ in 0..<count { result = result.removingLastComponent() }
        return result
    }
}
