import Foundation
import Glibc
import RawPaths
import MetadataIndex
import IgnoreRules
import RawPaths
import SyncPlanning

/// What one pass over a container did.
public struct PassReport: Sendable {
    public var published = 0
    public var applied = 0
    public var adopted = 0
    /// Edits moved to where a concurrent rename took their file (`FollowedMove`), and new
    /// items to where a concurrent rename took their folder (`Relocation`, `Landing`).
    public var followed = 0
    /// Conflicts merged (diaries).
    public var merged = 0
    public var skipped = 0
    /// Files read to learn their content (their signature did not vouch for the base's),
    /// over every round of the pass.
    public var hashed = 0
    /// Deletions held back until `ubq sync --confirm-deletes` (or `--restore-deletes`).
    public var heldDeletions = 0
    /// Held deletions undone: their items downloaded again (`ubq sync --restore-deletes`).
    public var restoredDeletions = 0
    /// Files that changed a moment ago, left for the next pass (container-relative).
    public var deferred: [RawPath] = []
    /// Files the scan could not read this time (`problems` says why): the next pass tries
    /// them again.
    public var unreadable = 0
    public var problems: [String] = []
    /// Why the actions that failed did, by path (a path counts once, however many rounds
    /// of the pass tried it; one that succeeded in a later round not at all): the items'
    /// uploading error in the index, or their downloading error for an action that was to
    /// change the disk.
    var uploadErrors: [String: String] = [:]
    var downloadErrors: [String: String] = [:]

    /// Items this pass could not sync: actions that failed, and files it could not read.
    public var failed: Int { uploadErrors.count + downloadErrors.count + unreadable }

    /// The actions that failed, as `path: reason`, by path.
    var failures: [RawPath: String] {
        var failures: [RawPath: String] = [:]
        for (path, reason) in uploadErrors.merging(downloadErrors, uniquingKeysWith: { upload, _ in upload }) {
            failures[RawPath(path)] = "\(path): \(reason)"
        }
        return failures
    }
    /// The ubiquity attributes of the container's items once the pass ended.
    public var indexState: SyncedState?
    /// Some action failed (other than finding the disk changed): the next pass looks at
    /// everything, since what changed may not be reported again.
    public var incomplete = false
    /// The pass stopped on a full disk (the container's or the mirror's): sync is paused
    /// until there is space, and retried (`pause(by:)`).
    public var pausedForSpace = false
    /// Why the pass did nothing at all: the container cannot be synced as it stands. It
    /// shows as the container's phase and message (not as an idle container with a
    /// problem), until a pass gets through.
    public var holdup: Holdup?

    public enum Holdup: Sendable, Equatable {
        /// Until the user puts things right (`Documents` made a link or a file).
        case paused(String)
        /// Until ubqd restarts (its own log written by another machine: `ContainerSync.stopped`).
        case stopped(String)

        var reason: String {
            switch self {
            case .paused(let reason), .stopped(let reason): reason
            }
        }
    }

    /// The pass looked at the whole container: asked to, or widened for its many changes
    /// (`SyncPass.widened`).
    public var lookedAtEverything = false

    public var changedAnything: Bool { published + applied + adopted + followed + merged > 0 }

    public init(problems: [String] = []) {
        self.problems = problems
    }

    /// The action at `path` failed, for `reason`: kept as the item's error (`download`:
    /// the action was to change the disk), and said in the problems when the pass ends.
    mutating func noteFailure(at path: String, download: Bool, _ reason: String) {
        if download { downloadErrors[path] = reason } else { uploadErrors[path] = reason }
    }

    /// The action at `path` succeeded (in a later round): its earlier failure is over.
    mutating func noteSuccess(at path: String) {
        if !uploadErrors.isEmpty { uploadErrors[path] = nil }
        if !downloadErrors.isEmpty { downloadErrors[path] = nil }
    }

    /// The report of a pass that stopped on a full disk, `error`.
    init(pausedBy error: SyncError) {
        self.init()
        pause(by: error)
    }

    /// The pass stopped on a full disk (`error`, met by `path`'s action): the next full
    /// pass resumes it.
    mutating func pause(by error: SyncError, at path: String? = nil) {
        problems.append((path.map { "\($0): " } ?? "") + "\(error); paused until there is space")
        incomplete = true
        pausedForSpace = true
    }
}

/// The sync state of one container: the versions read from every device's log so far,
/// and this device's own log writer.
final class ContainerSync {
    let id: String
    let folder: RawPath
    let layout: MirrorLayout
    let device: String
    private(set) var histories: [String: PathHistory] = [:]
    /// Paths whose history has unresolved conflicts.
    private var conflictedPaths: Set<String> = []
    /// Paths other devices changed since the last pass took them (`takeRemotelyChanged`).
    private var remotelyChanged: Set<String> = []
    /// Paths whose base changed outside a pass (`ubq resolve`): the next pass updates
    /// their view entries with those it touches itself.
    var viewBehind: Set<String> = []
    private var readers: [String: LogReader] = [:]
    private var writer: LogWriter?
    /// Why this container's sync stopped for good (until ubqd restarts): its own log
    /// changed behind its back (`SyncError.Code.ownLogChanged`).
    private(set) var stopped: SyncError?
    /// The last sequence number this device's journal records for its own versions
    /// (`SyncDatabase.lastOwnSequence`): numbering goes on after it, whatever the log holds.
    var journaledSequence: UInt64 = 0
    /// The deletions this device's passes published lately (the guard counts them).
    var recentDeletions = RecentDeletions()
    /// The local deletions waiting for their burst to end.
    var deletionBurst = DeletionBurst()
    /// Folders deleted on another device that a pass kept, because they held what is not
    /// synced (`Executor.keptFolder`). A pass over a change inside one plans it again
    /// (`SyncPass.keptFolders(holding:)`), so that the folder goes once the change empties
    /// it, not at the next pass over everything (minutes later). Forgotten by a pass over
    /// everything, which finds again those still kept.
    var keptFolders: Set<String> = []
    /// The same for folders this device's rename took along, kept for what they hold that
    /// is not synced when another device's deletion landed (`Landing.isDeletion`): where
    /// the folder is here → where the other device deleted it. A pass that looks at the
    /// one looks at the other, where the deletion is, and lands it again.
    var keptLandings: [String: String] = [:]
    /// The local items sync leaves out until the user changes them, with why.
    var unsynced = UnsyncedItems()
    /// The items whose actions failed, with `path: reason`, as the passes that looked at
    /// them last found (`UnsyncedItems`' rule).
    var failedItems = UnsyncedItems()
    /// The standing problems (of `unsynced` and `failedItems`) already logged: each is
    /// logged once while it stands (`SyncEngine.log`).
    var loggedStanding: Set<String> = []
    /// Of each log read, the sequence and time of its last line (`ClockCheck`).
    private(set) var lastRead: [String: (sequence: UInt64, time: Int64)] = [:]
    /// The versions dated before an earlier line of their writer's log (its clock went
    /// back), with the latest such time: the retention counts them from no earlier
    /// (`HistoryRetention.Floor`). Empty while clocks behave; after a line dated ahead,
    /// every later line of that log is here (the retention ignores bounds far ahead).
    private var writtenAfter: [VersionID: Int64] = [:]
    /// The latest time among each log's lines so far (for `writtenAfter`).
    private var latestTime: [String: Int64] = [:]

    /// The retention's floor for this container's versions, as read so far: what the
    /// engine's listings and the collector both judge by.
    var retentionFloor: HistoryRetention.Floor {
        let known = writtenAfter
        return { known[$0] }
    }

    init(id: String, folder: RawPath, layout: MirrorLayout, device: String) {
        self.id = id
        self.folder = folder
        self.layout = layout
        self.device = device
    }

    /// Whether another device's log changed since the last read (a cheap poll: a few
    /// stats). This device's own log only grows by its own passes, which know it already.
    func mirrorHasNews() -> Bool {
        readers.contains { $0.key != device && $0.value.hasNews() } || Set(logDevices() ?? []) != Set(readers.keys)
    }

    /// The devices whose log the last `readLogs` read to its end with no failure and no
    /// line it had to skip: a version of theirs that their log does not hold is known to be
    /// lost (the log was cut back), not merely unread this time (`Planner`). This device's
    /// own log counts when it is gone: only it writes there. Empty when the log folder
    /// could not be listed.
    private(set) var logsReadInFull: Set<String> = []
    /// Whether a read of the logs has listed the log folder since the start: until then
    /// `conflicts` knows nothing of the mirror (it was away, or nothing read it yet).
    private(set) var hasListedLogs = false

    /// Reads what every log gained since the last call; returns the problems, and keeps
    /// the paths the new records touch in `remotelyChanged` for the next scoped pass.
    @discardableResult
    func readLogs() -> [String] {
        var problems: [String] = []
        let listed = logDevices()
        if listed == nil { problems.append("cannot list \(layout.logFolder(container: id)); the logs already known are read") }
        for device in listed ?? [] where readers[device] == nil {
            readers[device] = LogReader(path: layout.log(container: id, device: device), device: device)
        }
        var readInFull: Set<String> = []
        // A log the listing no longer shows is gone (deleted by hand): there is nothing new
        // to read in it, and trying would say so at every pass.
        for device in readers.keys.sorted() where listed?.contains(device) ?? true {
            do {
                let (records, bad) = try readers[device]!.readNew()
                problems += bad
                if readers[device]!.skippedLines == 0 { readInFull.insert(device) }
                for record in records {
                    noteOrder(record)
                    add(record)
                    guard device != self.device else { continue }  // made here: the disk has it
                    remotelyChanged.insert(record.path)
                    if let origin = record.movedFrom { remotelyChanged.insert(origin) }
                }
            } catch {
                problems.append("\(error)")
            }
        }
        if let listed, !listed.contains(device) { readInFull.insert(device) }
        logsReadInFull = listed == nil ? [] : readInFull
        hasListedLogs = hasListedLogs || listed != nil
        return problems
    }

    func takeRemotelyChanged() -> Set<String> {
        defer { remotelyChanged = [] }
        return remotelyChanged
    }

    /// Keeps `paths` for the next scoped pass: a pass took them, and could not plan them
    /// or carry out their actions, and nothing else may report them again.
    func lookAgain(at paths: some Sequence<String>) {
        remotelyChanged.formUnion(paths)
    }

    /// Whether the next scoped pass has paths to look at that no watcher reports: a pass
    /// left them (`lookAgain`), or a read of the logs outside a pass found them.
    var hasPathsToLookAt: Bool { !remotelyChanged.isEmpty }

    /// Notes `record`, the next line of its writer's log: its place among that log's times.
    private func noteOrder(_ record: VersionRecord) {
        let device = record.id.device
        if let last = lastRead[device], record.id.sequence <= last.sequence { return }  // met before
        if let latest = latestTime[device], record.time < latest { writtenAfter[record.id] = latest }
        latestTime[device] = max(latestTime[device] ?? .min, record.time)
        lastRead[device] = (record.id.sequence, record.time)
    }

    func add(_ record: VersionRecord) {
        histories[record.path, default: PathHistory(path: record.path)].add(record)
        if histories[record.path]?.conflicts.isEmpty == false {
            conflictedPaths.insert(record.path)
        } else {
            conflictedPaths.remove(record.path)
        }
    }

    /// This device's writer, opened after its own log was read so numbering continues.
    /// Throws why the container stopped (`stopped`), if it did: nothing is appended under
    /// an id another machine shares, by a pass or by `ubq resolve`.
    func logWriter() throws -> LogWriter {
        if let stopped { throw stopped }
        if let writer { return writer }
        let logged = histories.values.lazy.flatMap(\.records).map(\.id).filter { $0.device == self.device }.map(\.sequence).max() ?? 0
        let opened = try LogWriter(
            path: layout.log(container: id, device: device), device: device, lastSequence: max(logged, journaledSequence),
            marker: layout.marker)
        writer = opened
        return opened
    }

    /// Appends this device's `records` to its log with `writer` (from `logWriter()`) and
    /// adds them to the histories. If the append fails, the writer is dropped: the next one
    /// is opened afresh, after the next `readLogs`, and numbers on from what the log holds.
    func appendOwn(_ records: [VersionRecord], with writer: inout LogWriter, faults: FaultInjection? = nil) throws(SyncError) {
        let span: LogWriter.Span
        do {
            span = try writer.append(contentsOf: records, faults: faults)
        } catch {
            self.writer = nil
            if error.code == .ownLogChanged { stopped = error }
            throw error
        }
        self.writer = writer
        // In file order: lines of the log not read yet (the log could not be read this
        // pass) come before these, and the reader meets them all later.
        let skipped = skipOwn(span)
        for record in records {
            if skipped { noteOrder(record) }
            add(record)
        }
    }

    /// This device appended `span` to its log, holding records `add` was given already:
    /// the next `readLogs` need not read and decode them again (a first sync appends a
    /// record per file). Before this log was ever read, its reader starts past them.
    private func skipOwn(_ span: LogWriter.Span) -> Bool {
        if readers[device] == nil && span.start == 0 {
            readers[device] = LogReader(path: layout.log(container: id, device: device), device: device)
        }
        return readers[device]?.skip(span) ?? false
    }

    /// The devices that have a log for this container; nil if the log folder is there but
    /// cannot be listed (an unlisted log is not a log that is gone).
    private func logDevices() -> [String]? {
        let folder = layout.logFolder(container: id)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return Sys.lstat(folder) == nil ? [] : nil }
        return names.filter { $0.hasSuffix(".ndjson") && !$0.hasPrefix(".") }.map { String($0.dropLast(".ndjson".count)) }
    }

    /// Every unresolved conflict: path → the losing versions. Kept up to date as records
    /// arrive, so a pass over a few paths does not look at every history.
    var conflicts: [String: [VersionRecord]] {
        var found: [String: [VersionRecord]] = [:]
        for path in conflictedPaths {
            if let losers = histories[path]?.conflicts, !losers.isEmpty { found[path] = losers }
        }
        return found
    }
}
