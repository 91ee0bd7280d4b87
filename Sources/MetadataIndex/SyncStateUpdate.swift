import Foundation
import GRDB
import RawPaths

/// Sets the ubiquity columns of the items a `SyncedState` covers (`SyncColumns`): one read
/// of their current columns, then a write of the rows whose columns differ, one statement
/// per run of consecutive ids that change alike (`runs(of:)`). A full pass that changed
/// nothing writes no row.
///
/// The comparison is made here, not in SQL. The paths first went to temporary tables and
/// three UPDATEs went over the container testing each row against them, each UPDATE one
/// read of the whole table (a 100,000-item table is about 50 MB of 16 KiB pages, read
/// through the writer's 8 MiB cache). A first sync of 100,000 files then waited 0.55 s
/// at its end for the index, with a core idle.
struct SyncStateUpdate {
    let container: String
    let uploaded: Set<RawPath>
    let uploading: Set<RawPath>
    let conflicted: Set<RawPath>
    /// nil: the mirror was not read, so the downloading columns stay as they are.
    let outdated: Set<RawPath>?
    let uploadError: String?
    let itemErrors: [RawPath: String]
    let downloadErrors: [RawPath: String]
    let roots: [RawPath]?

    init(container: String, _ state: SyncedState) {
        self.container = container
        uploaded = Set(state.uploaded)
        uploading = Set(state.uploading)
        conflicted = Set(state.conflicted)
        outdated = state.outdated.map(Set.init)
        uploadError = state.uploadError
        itemErrors = state.itemErrors
        downloadErrors = state.downloadErrors
        roots = state.limitedTo
    }

    /// The columns this update sets (the downloading ones only when the mirror was read).
    struct Attributes: Equatable {
        var isUploaded: Bool
        var isUploading: Bool
        var hasConflicts: Bool
        var percentUploaded: Double
        var uploadingError: String?
        var downloading: Downloading?
    }

    struct Downloading: Equatable {
        var status: String
        var percent: Double
        var isDownloading: Bool
        var error: String?
    }

    func run(_ db: Database, changes: inout AppliedChanges) throws {
        var stale: [(id: Int64, attributes: Attributes)] = []
        try forEachCoveredRow(db) { id, rel, current in
            let wanted = attributes(of: rel)
            if current != wanted { stale.append((id, wanted)) }
        }
        // Written once the read is over: rows are not changed under a statement reading them.
        for run in Self.runs(of: stale) {
            try write(run.attributes, ids: run.ids, db)
            for id in run.ids { changes.recordTouch(id) }
        }
    }

    /// `stale` as runs of consecutive ids that get the same attributes, each one UPDATE. A
    /// first sync leaves its last batches (28,000 of 110,000 items) for its final state: in
    /// a few runs, not 28,000 statements (0.2 s of the pass's end).
    static func runs(of stale: [(id: Int64, attributes: Attributes)]) -> [(ids: ClosedRange<Int64>, attributes: Attributes)] {
        var runs: [(ids: ClosedRange<Int64>, attributes: Attributes)] = []
        for (id, attributes) in stale.sorted(by: { $0.id < $1.id }) {
            if let last = runs.last, last.ids.upperBound == id - 1, last.attributes == attributes {
                runs[runs.count - 1].ids = last.ids.lowerBound...id
            } else {
                runs.append((id...id, attributes))
            }
        }
        return runs
    }

    func attributes(of rel: RawPath) -> Attributes {
        let isUploaded = uploaded.contains(rel)
        return Attributes(
            isUploaded: isUploaded, isUploading: uploading.contains(rel), hasConflicts: conflicted.contains(rel),
            percentUploaded: isUploaded ? 100 : 0, uploadingError: isUploaded ? nil : itemErrors[rel] ?? uploadError,
            downloading: outdated.map { outdated in
                let isOutdated = outdated.contains(rel)
                return Downloading(
                    status: isOutdated ? Self.downloaded : Self.current, percent: isOutdated ? 0 : 100, isDownloading: false,
                    error: isOutdated ? downloadErrors[rel] : nil)
            })
    }

    /// Calls `body` with each item the state covers: the container's, or (`roots`) those
    /// at and below each root, each once. The roots are read through the (container, rel)
    /// index: the item, then the range of paths below it.
    private func forEachCoveredRow(_ db: Database, _ body: (Int64, RawPath, Attributes) throws -> Void) throws {
        let columns = """
            SELECT items.id, items.rel, \((Self.uploadingColumns + Self.downloadingColumns).map(SyncColumns.value(of:)).joined(separator: ", "))
            FROM items \(SyncColumns.join)
            """
        guard let roots else {
            let statement = try db.cachedStatement(sql: columns + " WHERE items.container = ?")
            return try read(statement, [container], body)
        }
        let item = try db.cachedStatement(sql: columns + " WHERE items.container = ? AND items.rel = ?")
        let below = try db.cachedStatement(sql: columns + " WHERE items.container = ? AND items.rel > ? AND items.rel < ?")
        var seen: Set<Int64> = []
        let once: (Int64, RawPath, Attributes) throws -> Void = { id, rel, current in
            if seen.insert(id).inserted { try body(id, rel, current) }
        }
        for root in roots {
            try read(item, [container, Data(root.bytes)], once)
            try read(below, [container, Data(root.bytes + [0x2F]), Data(root.bytes + [0x30])], once)
        }
    }

    private func read(
        _ statement: Statement, _ arguments: StatementArguments, _ body: (Int64, RawPath, Attributes) throws -> Void
    ) throws {
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        while let row = try rows.next() {
            let rel = RawPath(bytes: row.dataNoCopy(atIndex: 1) ?? Data())
            let current = Attributes(
                isUploaded: row[2], isUploading: row[3], hasConflicts: row[4], percentUploaded: row[5], uploadingError: row[6],
                downloading: outdated == nil ? nil : Downloading(status: row[7], percent: row[8], isDownloading: row[9], error: row[10]))
            try body(row[0], rel, current)
        }
    }

    private func write(_ attributes: Attributes, ids: ClosedRange<Int64>, _ db: Database) throws {
        let uploading: [(any DatabaseValueConvertible)?] = [
            attributes.isUploaded, attributes.isUploading, attributes.hasConflicts, attributes.percentUploaded,
            attributes.uploadingError,
        ]
        let range: [(any DatabaseValueConvertible)?] = [ids.lowerBound, ids.upperBound]
        guard let downloading = attributes.downloading else {
            let statement = try db.cachedStatement(sql: Self.upsert(Self.uploadingColumns))
            return try statement.execute(arguments: StatementArguments(uploading + range))
        }
        let statement = try db.cachedStatement(sql: Self.upsert(Self.uploadingColumns + Self.downloadingColumns))
        try statement.execute(
            arguments: StatementArguments(uploading + [downloading.status, downloading.percent, downloading.isDownloading, downloading.error] + range))
    }

    /// The columns of `Attributes`, in the order `read` takes them and `write` binds them:
    /// the uploading ones, then the downloading ones (`Downloading`).
    static let uploadingColumns = ["is_uploaded", "is_uploading", "has_conflicts", "percent_uploaded", "uploading_error"]
    static let downloadingColumns = ["downloading_status", "percent_downloaded", "is_downloading", "downloading_error"]

    /// Sets `columns` of the items whose ids lie in a range (bound after the columns'
    /// values, in their order): a row is made in `item_sync` for an item that has none.
    static func upsert(_ columns: [String]) -> String {
        """
        INSERT INTO item_sync (id, \(columns.joined(separator: ", ")))
            SELECT id, \(columns.map { _ in "?" }.joined(separator: ", ")) FROM items WHERE id BETWEEN ? AND ?
        ON CONFLICT (id) DO UPDATE SET \(columns.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
        """
    }

    static let current = "NSMetadataUbiquitousItemDownloadingStatusCurrent"
    static let downloaded = "NSMetadataUbiquitousItemDownloadingStatusDownloaded"
}
