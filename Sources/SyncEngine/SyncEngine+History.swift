import APIModel
import Foundation
import Glibc
import RawPaths
import SyncPlanning
import UbiquitySettings

/// Conflicts, versions, resolution and restore: NSFileVersion's operations over the
/// mirror's histories. Call on the sync thread (like `passAll`).
extension SyncEngine {
    public func conflicts() -> [ConflictInfo] {
        conflictsByContainer().map(\.conflict)
    }

    /// Every unresolved conflict, with where its file is on this disk: the container
    /// folder's path and the bytes this device has the file's name in.
    public func conflictsByLocalPath() -> [(absolute: RawPath, conflict: ConflictInfo)] {
        conflictsByContainer().map { container, conflict in
            (container.folder.appending(LocalNames.relative(of: conflict.path, local: nil, in: container.folder)), conflict)
        }
    }

    /// Whether every container's logs have been read since the start, so that `conflicts()`
    /// tells what the mirror holds: not before the first pass, nor while the mirror is away.
    public var hasReadEveryLog: Bool {
        allContainers.allSatisfy { $0.1.hasListedLogs }
    }

    /// The ids of every unresolved conflict version, by container and path: what
    /// `conflictsByLocalPath()` depends on, found without reading a file (that reads the
    /// devices' names in the mirror, and looks names up on disk).
    public func conflictVersionIDs() -> [ContainerID: [String: [String]]] {
        var found: [ContainerID: [String: [String]]] = [:]
        for (id, container) in allContainers {
            let conflicts = container.conflicts
            if !conflicts.isEmpty { found[id] = conflicts.mapValues { $0.map(\.id.description) } }
        }
        return found
    }

    /// The devices' names are read (a few files in the mirror) only when there is a conflict.
    private func conflictsByContainer() -> [(container: ContainerSync, conflict: ConflictInfo)] {
        var names: [String: String]?
        var found: [(ContainerSync, ConflictInfo)] = []
        for (id, container) in allContainers {
            for (path, losers) in container.conflicts.sorted(by: { $0.key < $1.key }) {
                guard let winner = container.histories[path]?.winner else { continue }
                let known = names ?? deviceNames()
                names = known
                found.append((container, ConflictInfo(
                    container: id.identifier, path: path,
                    current: info(winner, known, current: true, conflict: false),
                    others: losers.map { info($0, known, current: false, conflict: true) })))
            }
        }
        return found
    }

    /// Every version of `path` still kept (see `retention`), newest first.
    public func versions(container id: ContainerID, path: String, now: Int64 = SyncClock.nowMilliseconds()) throws(SyncError) -> [VersionInfo] {
        let history = try history(id, path)
        let names = deviceNames()
        let winner = history.winner?.id
        let conflicts = Set(history.conflicts.map(\.id))
        return retention.kept(history, now: now, floor: floor(in: id)).map {
            info($0, names, current: $0.id == winner, conflict: conflicts.contains($0.id))
        }
    }

    /// Resolves `path`'s conflict as `choice` says. `removingOtherVersions`: the versions the
    /// resolution replaces leave the history too (NSFileVersion's `removeOtherVersionsOfItem`),
    /// on every device that reads the mark (`VersionRecord.forgetsAncestors`). False when
    /// there was nothing to resolve: nothing is written then.
    @discardableResult
    public func resolve(
        container id: ContainerID, path: String, keep choice: ResolutionChoice, removingOtherVersions: Bool = false
    ) throws(SyncError) -> Bool {
        if removingOtherVersions, case .resolving = choice {
            throw SyncError(.unknownItem, "the other versions are removed only when every conflict version is resolved")
        }
        try checkMirrorBeforeWriting()
        let history = try history(id, path)
        guard let winner = history.winner, let container = container(id) else { return false }
        if let stopped = container.stopped { throw stopped }  // before anything is written here
        // One head is no conflict: kept as it is, it would only be written again, as one
        // more version of the same content, and its file replaced under the apps that have
        // it open (`ubq resolve` run over every file, say).
        if history.headCount == 1, !removingOtherVersions, choice == .current || choice == .all { return false }
        var kept = winner
        var superseded = history.heads.map(\.id)
        switch choice {
        case .current: break
        case .resolving(let versions):
            guard let heads = try headsResolving(versions, in: history) else { return false }
            superseded = heads
        case .version(let version):
            kept = try keptVersion(version, of: history, in: id, now: SyncClock.nowMilliseconds())
        case .all:
            try liftingFolder(of: path, in: container) { () throws(SyncError) in
                for loser in history.conflicts { try copyBeside(loser, container: container) }
            }
        }
        let leavesTheFile: Bool
        switch choice {
        case .resolving: leavesTheFile = true
        case .current: leavesTheFile = removingOtherVersions
        case .version, .all: leavesTheFile = false
        }
        let signature = try place(kept, leavingTheFile: leavesTheFile, in: container)
        try supersede(
            heads: superseded, with: kept, signature: signature, container: container, id: id, outliving: history,
            forgetting: removingOtherVersions)
        return true
    }

    /// Puts `kept` on disk (`writeLocal`) and returns the signature of the file as placed. With
    /// `leavingTheFile`, a file that holds `kept` as last synced is left alone (an app may have
    /// it open) and its recorded signature returned.
    private func place(_ kept: VersionRecord, leavingTheFile: Bool, in container: ContainerSync) throws(SyncError) -> LocalSignature? {
        if leavingTheFile, let synced = try syncedRow(of: kept, in: container) { return synced.signature }
        return try liftingFolder(of: kept.path, in: container) { () throws(SyncError) in try writeLocal(kept, container: container) }
    }

    /// The base row of `record`'s path if this device last synced `record`'s very state
    /// there; nil if it synced something else (its own losing version, say), or nothing.
    private func syncedRow(of record: VersionRecord, in container: ContainerSync) throws(SyncError) -> BaseRow? {
        let row = try baseRow(of: record.path, in: container)
        return row?.entry.state == record.state ? row : nil
    }

    /// What this device last synced at `path`.
    private func baseRow(of path: String, in container: ContainerSync) throws(SyncError) -> BaseRow? {
        do {
            return try database.base(container: container.id, under: [path])[path]
        } catch {
            throw SyncError(.system(EIO), "reading the sync state of \(path): \(error)")
        }
    }

    /// The heads a resolution of only `versions` supersedes: all but the conflict versions
    /// left unresolved. Nil when none of `versions` is unresolved: as NSFileVersion's
    /// `isResolved`, resolving a version twice (or one whose content became current) does
    /// nothing. Throws for a version `history` does not have.
    private func headsResolving(_ versions: [VersionID], in history: PathHistory) throws(SyncError) -> [VersionID]? {
        if let stray = versions.first(where: { history.record($0) == nil }) {
            throw SyncError(.unknownItem, "\(history.path) has no version \(stray); see `ubq conflicts`")
        }
        let unresolved = Set(history.conflicts.map(\.id))
        let resolving = Set(versions).intersection(unresolved)
        guard !resolving.isEmpty else { return nil }
        return history.heads.map(\.id).filter { !unresolved.contains($0) || resolving.contains($0) }
    }

    /// Brings back an old version as a new change (the history keeps everything between),
    /// published before it returns: the user chose it from the whole history, so it
    /// replaces the current version (and its twins), even one this device has not
    /// downloaded yet. Left to the next pass, a file written a moment ago waited out the
    /// quiet period, and one this device was behind on was taken for a download made late
    /// and replaced by the current version again (`Planner`'s passed versions).
    /// A folder's version brings the deleted folder back with what it held
    /// (`restoreFolder`). Returns what was restored, and what could not be.
    @discardableResult
    public func restore(
        container id: ContainerID, path: String, version: VersionID, now: Int64 = SyncClock.nowMilliseconds()
    ) throws(SyncError) -> RestoreResult {
        try checkMirrorBeforeWriting()
        let history = try history(id, path)
        let record = try keptVersion(version, of: history, in: id, now: now)
        guard let container = container(id) else { return RestoreResult() }
        if let stopped = container.stopped { throw stopped }  // before anything is written here
        // A pass follows what was written, even if publishing it failed: not a refusal.
        var wrote = false
        defer { if wrote { passAll() } }
        if record.state?.kind == .folder { return try restoreFolder(history, in: id, container: container, now: now, wrote: &wrote) }
        try restoreItem(record, of: history, in: id, container: container, wrote: &wrote)
        return RestoreResult()
    }

    /// Puts `record` (a file's or a link's version) back on disk and publishes it over
    /// `history`'s current version. `wrote` is set once the disk was written.
    func restoreItem(_ record: VersionRecord, of history: PathHistory, in id: ContainerID, container: ContainerSync, wrote: inout Bool) throws(SyncError) {
        let signature = try place(record, leavingTheFile: false, in: container)
        wrote = true
        // The current content needs no new version: back on disk (its deletion held by the
        // guard, say), the file is in sync again.
        guard let current = history.winner, current.state != record.state else { return }
        try supersede(
            heads: [current.id] + history.twins(of: current.id), with: record, signature: signature, container: container, id: id,
            outliving: history, forgetting: false)
    }

    /// The check a pass makes first (`checkMirror`), for a call that writes between passes:
    /// an unmounted mirror is said as such (not as a path with no versions), and another
    /// mirror found meanwhile is started over with before its histories are used.
    func checkMirrorBeforeWriting() throws(SyncError) {
        do {
            try checkMirror()
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError(.system(EIO), "reading the sync state: \(error)")
        }
    }

    /// Runs `body`, which writes beside `path`, with its folder lifted if it is read-only
    /// (`FolderLift`), as a pass would.
    private func liftingFolder<Result>(of path: String, in container: ContainerSync, _ body: () throws(SyncError) -> Result) throws(SyncError) -> Result {
        let folder = Sys.parent(of: container.folder.appending(LocalNames.relative(of: path, local: nil, in: container.folder)).readable)
        let lift: FolderLift
        do {
            lift = try FolderLift(database: database)
            try lift.lift([folder])
        } catch {
            throw SyncError(.system(EIO), "making \(folder) writable for a moment: \(error)")
        }
        defer { lift.end() }
        return try body()
    }

    /// Version `version` of `history`, if it has content and the retention still keeps it.
    func keptVersion(_ version: VersionID, of history: PathHistory, in id: ContainerID, now: Int64) throws(SyncError) -> VersionRecord {
        guard let record = history.record(version), record.state != nil else {
            throw SyncError(.unknownItem, "\(history.path) has no version \(version) with content; see `ubq versions`")
        }
        guard !history.forgotten.contains(version) else {
            throw SyncError(.unknownItem, "version \(version) of \(history.path) was removed from the history (removeOtherVersionsOfItem); see `ubq versions`")
        }
        guard retention.keeps(record, in: history, now: now, floor: floor(in: id)) else {
            let days = (retention.keepMilliseconds ?? 0) / 86_400_000
            throw SyncError(
                .unknownItem,
                "version \(version) of \(history.path) has expired: replaced versions are kept for \(days) days (history_retention_days); see `ubq versions`")
        }
        return record
    }

    /// The retention's floor for container `id`'s versions (`ContainerSync.retentionFloor`).
    func floor(in id: ContainerID) -> HistoryRetention.Floor {
        container(id)?.retentionFloor ?? { _ in nil }
    }

    func history(_ id: ContainerID, _ path: String) throws(SyncError) -> PathHistory {
        guard let container = container(id) else { throw SyncError(.unknownItem, "no container \(id.identifier)") }
        _ = container.readLogs()
        guard let history = container.histories[path] else {
            throw SyncError(.unknownItem, "\(path) has no versions in \(id.identifier) (paths are relative to the container folder, e.g. Documents/notes.txt)")
        }
        return history
    }

    /// Puts `record`'s file or link at its path on disk, atomically, under a coordinated write
    /// (a document open in an app is saved or released first), if the disk holds what was
    /// last synced there: an edit not synced yet exists nowhere else, so it is never
    /// replaced (the user syncs, then resolves or restores again). Returns the signature
    /// of the file as placed.
    private func writeLocal(_ record: VersionRecord, container: ContainerSync) throws(SyncError) -> LocalSignature? {
        guard let state = record.state, state.kind != .folder else { return nil }
        let relative = LocalNames.relative(of: record.path, local: nil, in: container.folder).readable
        let absolute = container.folder.appending(relative).readable
        let synced = try baseRow(of: record.path, in: container)
        guard try Self.disk(at: absolute, holds: synced) else { throw Self.unsyncedChanges(at: absolute) }  // checked again below, under the claim
        try storeAgainIfMissing(synced, at: relative, in: container)
        try ConcurrentSync.fsyncFolders(try Sys.makeParentFolders(of: relative, beneath: container.folder.readable), faults: faults)
        let staging = DurableFile.stagingPath(beside: absolute)
        try ContentStore(layout: layout, device: device.id).make(state, at: staging)
        let window = racyWindowNanoseconds
        do {
            return try coordinator.write(absolute) { () throws -> LocalSignature? in
                guard let placed = Sys.lstat(staging) else { throw SyncError.system("lstat", staging) }
                guard try Self.disk(at: absolute, holds: synced) else { throw Self.unsyncedChanges(at: absolute) }
                let renamedAt = LocalSignature.now()
                guard try Sys.rename(staging, absolute, replacing: Sys.lstat(absolute) != nil) else {
                    throw SyncError(.changedMeanwhile, "\(absolute) appeared meanwhile; nothing was changed")
                }
                try Sys.fsyncFolder(Sys.parent(of: absolute))
                return Executor.signature(of: absolute, asPlaced: placed, renamedAt: renamedAt, window: window)
            }
        } catch let error as SyncError {
            unlink(staging)
            throw error
        } catch {
            unlink(staging)
            throw SyncError(.changedMeanwhile, "\(absolute): could not coordinate the write: \(error)")
        }
    }

    /// Why a version was not put at `absolute`: the file there has changes not synced yet,
    /// which exist nowhere else.
    private static func unsyncedChanges(at absolute: String) -> SyncError {
        SyncError(.changedMeanwhile, "\(absolute) has changes that are not synced yet; nothing was changed: run `ubq sync`, then try again")
    }

    /// Stores the content of the file at `relative`, as last synced (`synced`), if the
    /// store lost its object: the file about to be replaced may be its last copy
    /// (`SyncPass.keepingReplacedContent` does the same for a pass). Throws if the file
    /// no longer holds it: it was changed, and the write is refused anyway.
    private func storeAgainIfMissing(_ synced: BaseRow?, at relative: String, in container: ContainerSync) throws(SyncError) {
        guard let state = synced?.entry.state, state.kind == .file, let content = state.sha256,
            !ContentStore.holds(content, size: state.size, in: layout), Sys.lstat(container.folder.appending(relative).readable) != nil
        else { return }
        let store = ContentStore(layout: layout, device: device.id)
        let expected = ContentHashing.Result(sha256: content, size: state.size)
        guard let staged = try store.stage(RawPath(relative), through: FolderCursor(root: container.folder), expected: expected, scanned: synced?.signature)
        else { return }
        try store.commit([staged], faults: faults)
    }

    /// Whether the item at `absolute` may be replaced: it is what the base says was last
    /// synced there (its recorded signature, or else its content, tells), or nothing is
    /// there. A file deleted here whose deletion is not published yet (the mass-deletion
    /// guard holds it) has its content in the store, so writing a version there loses
    /// nothing; refused, the user deleted a tree by mistake could not bring a file back.
    private static func disk(at absolute: String, holds synced: BaseRow?) throws(SyncError) -> Bool {
        guard let info = Sys.lstat(absolute) else { return true }
        guard let state = synced?.entry.state else { return false }
        if synced?.signature == LocalSignature(stat: info) { return true }
        return try ConflictCopy.holds(state, at: absolute)
    }

    /// Puts a copy of `loser` beside its file, named for its device and day (`ConflictCopy`).
    private func copyBeside(_ loser: VersionRecord, container: ContainerSync) throws(SyncError) {
        let copies = ConflictCopy(containerFolder: container.folder, store: ContentStore(layout: layout, device: device.id), faults: faults)
        try copies.place(loser, deviceName: deviceNames()[loser.id.device] ?? loser.id.device)
    }

    /// Appends a version naming `heads` as parents: the conflict between them is over on
    /// every device.
    ///
    /// Heads of `history` it leaves out stay heads: the new version is dated after them, so
    /// that it wins over them (`WinnerRule`) even where their writer's clock ran ahead.
    private func supersede(
        heads: [VersionID], with kept: VersionRecord, signature: LocalSignature?, container: ContainerSync, id: ContainerID,
        outliving history: PathHistory, forgetting: Bool
    ) throws(SyncError) {
        let left = history.heads.filter { !heads.contains($0.id) }
        let latest = left.map(\.time).max() ?? 0  // any Int64: a log line's time is its writer's word
        let time = max(SyncClock.nowMilliseconds(), latest == .max ? latest : latest + 1)
        do {
            var writer = try container.logWriter()
            let record = VersionRecord(
                id: writer.nextID, path: kept.path, parents: heads, state: kept.state, time: time, forgetsAncestors: forgetting)
            try container.appendOwn([record], with: &writer)
            try database.commit(
                container: id.identifier,
                [BaseCommit("resolve", path: kept.path, version: record.id, state: kept.state, signature: signature)])
            container.viewBehind.insert(kept.path)
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError(.system(EIO), "recording the resolution of \(kept.path): \(error)")
        }
    }

    private func info(_ record: VersionRecord, _ names: [String: String], current: Bool, conflict: Bool) -> VersionInfo {
        VersionInfo(record, deviceName: names[record.id.device] ?? record.id.device, current: current, conflict: conflict, layout: layout)
    }

    /// Device id → human name, from the mirror's `devices/` folder.
    func deviceNames() -> [String: String] { layout.deviceNames() }
}

/// `notes (conflict from laptop 2026-11-22).txt`: where `ubq resolve --keep all` puts a
/// losing version, as iCloud Drive and Dropbox name them.
///
/// The name fits in the 255 bytes a Linux filesystem takes (NAME_MAX): the file's own name
/// loses its last characters to make room (a long name's copy could not be made before:
/// ENAMETOOLONG, and the conflict stayed), and so does a very long device name.
enum ConflictName {
    static let longestName = 255
    /// The most of a device's name a copy's name shows.
    static let longestDevice = 64

    /// `number` 2 and up tell apart copies that would otherwise have the same name.
    static func make(for path: String, device: String, time: Int64, number: Int = 1) -> String {
        let folderEnd = path.lastSlash.map { path.utf8.index(after: $0) } ?? path.startIndex
        let name = path[folderEnd...]
        let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")).flatMap { $0 == name.startIndex ? nil : $0 }
        var stem = dot.map { name[..<$0] } ?? name
        var ext = dot.map { name[$0...] } ?? ""
        let day = ISO8601DateFormatter.string(
            from: Date(timeIntervalSince1970: Double(time) / 1000), timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
        let safeDevice = prefix(of: Substring(device.replacingOccurrences(of: "/", with: "-")), bytes: longestDevice)
        let copy = " (conflict from \(safeDevice) \(day)\(number > 1 ? " \(number)" : ""))"
        let room = longestName - copy.utf8.count
        if ext.utf8.count > room / 2 {  // an "extension" that long is part of the name
            stem = name
            ext = ""
        }
        stem = prefix(of: stem, bytes: room - ext.utf8.count)
        return String(path[..<folderEnd]) + stem + copy + ext
    }

    /// The longest start of `text` in at most `bytes` bytes of UTF-8, cut between characters.
    private static func prefix(of text: Substring, bytes: Int) -> Substring {
        var end = text.endIndex
        var count = text.utf8.count
        while count > bytes, end > text.startIndex {
            let before = text.index(before: end)
            count -= text.utf8.distance(from: before, to: end)
            end = before
        }
        return text[..<end]
    }
}
