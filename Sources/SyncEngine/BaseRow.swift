import GRDB
import Glibc
import SQLiteDirect
import SyncPlanning

/// One row of the base tree: the agreed version and local state of a path, and the local
/// file's signature when it was recorded, so an unchanged file is not hashed again.
struct BaseRow: Equatable {
    var path: String
    var entry: BaseEntry
    var signature: LocalSignature?

    init(path: String, entry: BaseEntry, signature: LocalSignature?) {
        self.path = path
        self.entry = entry
        self.signature = signature
    }

    /// The columns `init?(_:)` reads, in its order: a full pass reads every row, and
    /// fetching by position costs a fraction of looking each column up by name.
    static let selection = "path, version, kind, sha256, size, mode, target, inode, mtime_ns, ctime_ns"

    /// A row fetched with `SELECT \(selection)`; nil if its version does not parse.
    init?(_ row: Row) {
        guard let version = VersionID(row[1] as String) else { return nil }
        path = row[0]
        let size: Int64 = row[4] ?? 0
        var state: EntryState?
        if let kind = (row[2] as String?).flatMap(EntryState.Kind.init(rawValue:)) {
            state = EntryState(kind: kind, sha256: row[3], size: size, mode: row[5] ?? 0, linkTarget: row[6])
        }
        entry = BaseEntry(version: version, state: state)
        if let inode: Int64 = row[7] {
            signature = LocalSignature(inode: UInt64(bitPattern: inode), size: size, modifiedNanoseconds: row[8], changedNanoseconds: row[9])
        }
    }

    /// The statement `replace(with:container:)` runs: a row replaces the path's old one.
    static func replaceStatement(_ db: Database) throws -> Statement {
        try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO base(container, path, version, kind, sha256, size, mode, target, inode, mtime_ns, ctime_ns)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
    }

    /// Records this row for `path`, replacing the one it had, with `replaceStatement`'s
    /// statement. Bound directly (`DirectStatement`): through GRDB's arguments, a first
    /// sync's 100,000 rows spent about 0.17 s of the pass's thread converting values.
    /// `version`: `entry.version` as text, which the caller also writes in the journal.
    func replace(with statement: DirectStatement, container: String, version: String) throws {
        let state = entry.state
        try statement.bind(container, at: 1)
        try statement.bind(path, at: 2)
        try statement.bind(version, at: 3)
        try statement.bind(state?.kind.rawValue, at: 4)
        try statement.bind(state?.sha256, at: 5)
        try statement.bind(state?.size, at: 6)
        try statement.bind(state.map { Int64($0.mode) }, at: 7)
        try statement.bind(state?.linkTarget, at: 8)
        try statement.bind(signature.map { Int64(bitPattern: $0.inode) }, at: 9)
        try statement.bind(signature?.modifiedNanoseconds, at: 10)
        try statement.bind(signature?.changedNanoseconds, at: 11)
        try statement.run()
    }
}

/// What `stat` says of a local item: if it is unchanged, so is the content.
struct LocalSignature: Equatable, Sendable {
    var inode: UInt64
    var size: Int64
    var modifiedNanoseconds: Int64
    var changedNanoseconds: Int64

    /// How close to a scan a file's last change may be before its signature stops vouching
    /// for its content. The kernel stamps a change with a clock that advances once a tick
    /// (up to 10 ms, HZ=100), so a second write of the same size within the tick of the
    /// first leaves size, mtime and ctime as they were: a signature read in that tick and
    /// kept would hide the second write for good (git's "racily clean" entries). Kernels
    /// since 6.13 give a change after a `stat` a finer stamp (multigrain timestamps), so
    /// there the tick is no longer a window; older ones (Debian 12's 6.1) still have it.
    static let racyWindowNanoseconds: Int64 = 20_000_000

    /// Now, in nanoseconds on the clock file changes are stamped with (CLOCK_REALTIME).
    static func now() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// Whether this signature, read after `readAt` (realtime nanoseconds), vouches for the
    /// content read with it: the last change is a whole `window` older than the read, so
    /// any later change gets a later stamp.
    func vouches(readAt: Int64, window: Int64 = Self.racyWindowNanoseconds) -> Bool {
        Self.isSettled(changedNanoseconds, before: readAt, window: window)
    }

    /// Whether a change stamped `stamp` is a whole `window` older than `moment`: any
    /// change after `moment` is stamped later.
    static func isSettled(_ stamp: Int64, before moment: Int64, window: Int64 = racyWindowNanoseconds) -> Bool {
        stamp <= moment - window
    }
}
