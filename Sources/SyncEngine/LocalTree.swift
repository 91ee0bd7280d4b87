import Foundation
import Glibc
import IgnoreRules
import Indexing
import MetadataIndex
import RawPaths
import SyncPlanning

/// One local item as sync sees it: its state, where it really is on disk (the raw name
/// may be NFD or otherwise differ from the sync path), and its signature.
struct LocalEntry {
    var rawPath: RawPath
    var state: EntryState
    var signature: LocalSignature
    /// The signature the base may keep with `state`: nil when the file changed too shortly
    /// before it was read for it to vouch for the content (`LocalSignature.vouches`), so
    /// the next scan reads the file again rather than trust it.
    var lastingSignature: LocalSignature?
    /// A copy of the file made while it was hashed, for its upload (`EarlyCopy`).
    var earlyCopy: EarlyCopy?
}

/// The local tree of one container, read from the disk. Files whose signature matches the
/// base are not read again; others are hashed.
struct LocalTree {
    var entries: [String: LocalEntry] = [:]
    /// Paths that could not be read this time: left out of the plan, so an unreadable
    /// file never looks deleted.
    var unknown: [RawPath] = []
    var problems: [String] = []
    /// The items left out for a reason that lasts until the user changes them (a name sync
    /// cannot carry, a path too long, a folder it cannot read), with that reason, which
    /// `problems` holds too.
    var unsynced: [RawPath: String] = [:]
    /// The FIFOs, sockets and device files where no synced item was: sync does not carry
    /// them, by design, so they are no problem; but the index says why they are not uploaded
    /// (their UploadingError), rather than leave them looking like uploads yet to come.
    var uncarried: [RawPath: String] = [:]
    /// `unsynced` and `uncarried`: each item the index shows with an error, and why.
    var itemErrors: [RawPath: String] { unsynced.merging(uncarried) { leftOut, _ in leftOut } }
    /// Items that could not be read this time (left out of the plan, like `unsynced`, but
    /// tried again by the next pass).
    var unreadable = 0
    /// Files left for a later pass because they changed a moment ago.
    var deferred: [RawPath] = []
    /// Sync's own staging files found in the tree (`DurableFile.isStagingName`).
    var leftovers: [RawPath] = []
    /// How many files were read to learn their content (their signature did not vouch for
    /// the base's).
    var hashed = 0

    /// The staging files of the entries' early copies: whatever the pass did not upload
    /// from them is removed when it ends.
    var earlyCopies: [String] { entries.values.compactMap(\.earlyCopy?.staging) }

    /// The dirty memory the early copies hold until a batch syncs them (`BatchDurability`).
    var earlyCopyFootprint: Int64 { BatchDurability.footprint(of: entries.values.compactMap(\.earlyCopy?.signature.size)) }

    /// The roots below no other root: a folder root is scanned whole, so a root inside it
    /// (a file copied into a new folder is noted with the folder) would be scanned again.
    private static func topmost(_ roots: [RawPath]) -> [RawPath] {
        let all = Set(roots)
        return roots.filter { root in !root.ancestors.contains(where: all.contains) }
    }

    /// Reads the whole container, or only the subtrees at `roots` (container-relative):
    /// what changed since the last pass, for a pass that need not look at everything.
    /// Files changed less than `quietNanoseconds` ago are left out this time (they may
    /// still be being written: DESIGN.md, decision 2) and counted in `deferred`, unless
    /// they are just as sync left them; and so are files a writer still holds open that
    /// changed within `writerWindow`.
    ///
    /// A file read within `racyWindow` of its last change gets no `lastingSignature`. With
    /// a `copier`, files are copied into the store while they are hashed. Small files are
    /// hashed before the tree is built, on several threads when there are many
    /// (`ScanHashing`); `reading` is told how many just before.
    static func scan(
        containerFolder: RawPath, ignore: IgnoreRules, base: [String: BaseRow], roots: [RawPath]? = nil, quietNanoseconds: Int64 = 0,
        racyWindow: Int64 = LocalSignature.racyWindowNanoseconds, copier: EarlyCopier? = nil, reading: (_ files: Int) -> Void = { _ in }
    ) -> LocalTree {
        // Before any status is read: a signature vouches only if its change is a window older.
        let started = LocalSignature.now()
        var scanner = TreeScanner(ignore: ignore, notice: DurableFile.isStagingName)
        // In the paths' order: items are hashed and added in it. The walk yields that
        // order; sorting the paths of a 100,000-item map took 0.08-0.18 s of a first sync,
        // on one core while the other waited.
        var found: [(path: RawPath, status: FileStatus)] = []
        if let roots {
            for root in topmost(roots) where !root.isEmpty {
                // Beneath: a root below a folder that is a link here (another device's
                // path) is not in this container, whatever the link leads to.
                guard let status = try? FileStatus.read(root, beneath: containerFolder) else { continue }
                let isFolder = status.signature.kind == .folder
                if ignore.isIgnored(relativePath: root.bytes, isDirectory: isFolder) { continue }
                found.append((root, status))
                if isFolder { found += scanner.scan(folder: containerFolder.appending(root), prefix: root) }
            }
            // A root's subtree follows it, but may sort after the next root ("a", "a b", "a/x").
            found.sort { $0.path < $1.path }
        } else {
            found = scanner.scan(folder: containerFolder, prefix: RawPath())
        }
        var tree = LocalTree()
        tree.entries.reserveCapacity(found.count)  // growing it to 110,000 entries took 80 ms of a first sync
        tree.leftovers = scanner.noticed
        for failure in scanner.failures {
            let relative = failure.path.relative(to: containerFolder)
            tree.leaveOut(relative, "not synced: \(failure)")
            tree.unknown.append(relative)
        }
        let now = LocalSignature.now()
        let settledBefore = now - quietNanoseconds
        let folders = FolderCursor(root: containerFolder)
        let vouches = { (status: FileStatus) in
            status.signature.kind != .file || LocalSignature(status.signature).vouches(readAt: started, window: racyWindow)
        }
        let moved = MovedFiles(base: base)
        let hashed = hashAhead(
            found, beneath: containerFolder, base: base, moved: moved, settledBefore: settledBefore, now: now, vouches: vouches,
            reading: reading
        ) { path, signature, vouched in
            copier?.stagingForHash(path, signature: signature, vouched: vouched)
        }
        // The items hashed ahead are in `found`'s order: each is met as the walk below
        // reaches it. On a first sync of 100,000 files, on one core while the other
        // waited, a map of them filled by path (0.031-0.033 s) and emptied by path made
        // this walk's part 0.12-0.13 s; it is 0.073-0.076 s.
        var nextHashed = hashed.startIndex
        for (relative, status) in found {
            var ahead: ScanHashing.Outcome?
            if nextHashed < hashed.endIndex, hashed[nextHashed].relative == relative {
                ahead = hashed[nextHashed].outcome
                nextHashed += 1
            }
            let changed = status.signature.changedNanoseconds
            if status.signature.kind == .file, changed > settledBefore, !isAsKept(relative, status, base: base) {
                tree.leaveForLater(relative)
            } else {
                tree.add(
                    relative, status, folders: folders, base: base, moved: moved, recent: changed > now - Self.writerWindow,
                    vouched: vouches(status), copier: copier, hashed: &ahead)
            }
            // Hashed ahead but not taken (a name that is another's in NFC): its copy goes.
            if case .success(let leftover)? = ahead, let copy = leftover.copy { unlink(copy) }
        }
        return tree
    }

    /// Hashes the small files among `found` that `add` would read, all at once
    /// (`ScanHashing`): those that are settled, have a sync path, and whose signature does
    /// not vouch for the base's state; returns them in `found`'s order. `vouches` and
    /// `staging` are as `add` is given them.
    private static func hashAhead(
        _ found: [(path: RawPath, status: FileStatus)], beneath containerFolder: RawPath, base: [String: BaseRow], moved: MovedFiles,
        settledBefore: Int64, now: Int64, vouches: (FileStatus) -> Bool, reading: (_ files: Int) -> Void,
        staging: (_ path: String, LocalSignature, _ vouched: Bool) -> String?
    ) -> [(relative: RawPath, outcome: ScanHashing.Outcome)] {
        var jobs: [ScanHashing.Job] = []
        for (relative, status) in found {
            let changed = status.signature.changedNanoseconds
            guard status.signature.kind == .file, changed <= settledBefore, Int64(status.signature.size) < EarlyCopy.threshold,
                let path = SyncPath.key(relative)
            else { continue }
            let signature = LocalSignature(status.signature)
            guard keptState(of: status, signature, known: base[path]) == nil, moved.state(of: status, signature, at: path) == nil else { continue }
            jobs.append(
                ScanHashing.Job(
                    relative: relative, size: Int64(status.signature.size), refusingWriters: changed > now - writerWindow,
                    staging: staging(path, signature, vouches(status))))
        }
        reading(jobs.count)
        let outcomes = ScanHashing.hash(jobs, beneath: containerFolder)
        return zip(jobs, outcomes).map { job, outcome in (job.relative, outcome) }
    }

    /// A file some process holds open for writing and that changed less than this long ago
    /// is still being written, even when its writer has been silent for a while: copying
    /// 1 GiB here, the kernel held the writer back for over 2 s (the watcher's open-file
    /// timeout), and the first 200 MB were published as the file. A writer that keeps a
    /// file open without changing it for longer (a log) is synced as it stands.
    static let writerWindow: Int64 = 30_000_000_000

    /// Leaves `relative` out until the user changes it, saying why.
    private mutating func leaveOut(_ relative: RawPath, _ reason: String) {
        problems.append(reason)
        unsynced[relative] = reason
    }

    private mutating func leaveForLater(_ relative: RawPath) {
        unknown.append(relative)
        deferred.append(relative)
    }

    /// `recent`: changed within `writerWindow`, so a writer that still has it open is
    /// asked about (when it is read, on the descriptor it is hashed from). `vouched`: the
    /// signature may be kept with the state found. `ahead`: the item's hash, if it was
    /// hashed ahead; set to nil once taken.
    private mutating func add(
        _ relative: RawPath, _ status: FileStatus, folders: FolderCursor, base: [String: BaseRow], moved: MovedFiles, recent: Bool,
        vouched: Bool, copier: EarlyCopier?, hashed ahead: inout ScanHashing.Outcome?
    ) {
        let containerFolder = folders.root
        guard let path = SyncPath.key(relative) else {
            leaveOut(relative, "not synced: the name \(relative.shellQuoted) is not valid UTF-8; rename it to sync it")
            return
        }
        if let other = entries[path], other.rawPath != relative {
            leaveOut(relative, "not synced: \(relative.readable) and \(other.rawPath.readable) are the same name in NFC and NFD; rename one of them to sync it")
            unknown.append(relative)
            return
        }
        let signature = LocalSignature(status.signature)
        do throws(SyncError) {
            let known = base[path]
            var state: EntryState
            var earlyCopy: EarlyCopy?
            if let kept = Self.keptState(of: status, signature, known: known) ?? moved.state(of: status, signature, at: path) {
                state = kept
            } else if let outcome = ahead {
                ahead = nil
                let done = try outcome.get()  // a failed hash removed its partial copy
                state = .file(sha256: done.content.sha256, size: done.content.size, mode: status.syncedMode)
                earlyCopy = done.copy.map { EarlyCopy(staging: $0, signature: signature) }
                hashed += 1
            } else if status.signature.kind == .file {
                // Not hashed ahead: a large file, copied in the kernel meanwhile (`EarlyCopier.start`).
                let pending = copier?.start(relative, path: path, beneath: containerFolder, signature: signature)
                do throws(SyncError) {
                    state = try Self.fileState(of: relative, through: folders, status, refusingWriters: recent)
                } catch {
                    if let copy = pending?.finish() { unlink(copy.staging) }
                    throw error
                }
                earlyCopy = pending?.finish()
                hashed += 1
            } else {
                guard let read = try Self.state(of: relative, beneath: containerFolder, status) else {
                    // What sync does not carry is left out. Where it took the place of a synced
                    // item, it is said, and the path left alone: as a deletion it would be
                    // dropped each pass in silence, and another device's edit never arrive.
                    let reason = "not synced: \(relative.readable) is a FIFO, socket or device file, which sync does not carry"
                    if known != nil {
                        leaveOut(relative, reason + "; it stays as it is")
                        unknown.append(relative)
                    } else {
                        uncarried[relative] = reason
                    }
                    return
                }
                state = read
            }
            if state.kind == .file { state.modified = signature.modifiedNanoseconds }  // the base keeps no date
            entries[path] = LocalEntry(
                rawPath: relative, state: state, signature: signature, lastingSignature: vouched ? signature : nil, earlyCopy: earlyCopy)
        } catch where error.code == .changedMeanwhile {
            leaveForLater(relative)
        } catch where error.isPathTooLong {
            leaveOut(relative, "not synced: \(error); \(SyncError.pathTooLongHint(for: relative.readable))")
            unknown.append(relative)
        } catch {
            problems.append("\(relative.readable): not synced this time: \(error)")
            unreadable += 1
            unknown.append(relative)
        }
    }

    /// Whether the file at `relative` has the very signature the base kept with it: sync
    /// put it there (a download, or a rename another device made, just now), and no
    /// writer has touched it since. Changed a moment ago, it is still settled: left for
    /// later, it would hold back what follows it (a folder rename that takes it along).
    private static func isAsKept(_ relative: RawPath, _ status: FileStatus, base: [String: BaseRow]) -> Bool {
        guard let path = SyncPath.key(relative) else { return false }
        return keptState(of: status, LocalSignature(status.signature), known: base[path]) != nil
    }

    /// The base's state of a file whose signature is the one the base kept with it: the
    /// file is not read again.
    static func keptState(of status: FileStatus, _ signature: LocalSignature, known: BaseRow?) -> EntryState? {
        guard status.signature.kind == .file, let known, known.signature == signature, let state = known.entry.state,
            state.kind == .file, state.mode == status.syncedMode
        else { return nil }
        return state
    }

    /// The state of an item other than a file (`fileState`), read from the disk through no
    /// symlink (a folder on the way swapped for a link since its status was read does not
    /// lead the read out of the container); nil for what sync does not carry (sockets,
    /// FIFOs, devices).
    private static func state(of relative: RawPath, beneath folder: RawPath, _ status: FileStatus) throws(SyncError) -> EntryState? {
        switch status.signature.kind {
        case .folder: return .folder(mode: status.syncedMode)
        case .symlink: return .symlink(to: try readLink(relative, beneath: folder))
        case .other, .file: return nil
        }
    }

    /// A file's state, its content hashed (with `refusingWriters`, not while a process
    /// still has it open for writing).
    private static func fileState(
        of relative: RawPath, through folders: FolderCursor, _ status: FileStatus, refusingWriters: Bool
    ) throws(SyncError) -> EntryState {
        let content = try ContentHashing.hash(
            relative, through: folders, refusingWriters: refusingWriters, expectedSize: Int64(status.signature.size))
        return .file(sha256: content.sha256, size: content.size, mode: status.syncedMode)
    }

    static func readLink(_ relative: RawPath, beneath folder: RawPath) throws(SyncError) -> String {
        do {
            return String(decoding: try FileStatus.linkText(relative, beneath: folder), as: UTF8.self)
        } catch {
            throw .system("readlink", error.path.readable, errno: error.errno)
        }
    }
}

extension LocalSignature {
    init(_ signature: FileSignature) {
        self.init(
            inode: signature.inode, size: Int64(signature.size), modifiedNanoseconds: signature.modifiedNanoseconds,
            changedNanoseconds: signature.changedNanoseconds)
    }
}

/// The mirror names items by NFC text: a name typed on a Mac (NFD) and on Linux (NFC) is
/// one item.
enum SyncPath {
    static func key(_ relative: RawPath) -> String? {
        guard let text = String(validating: relative.bytes, as: UTF8.self) else { return nil }
        // ASCII is NFC already; Foundation's normalization costs microseconds a path, and
        // a full pass keys every path of the container.
        if relative.bytes.allSatisfy({ $0 < 0x80 }) { return text }
        return text.precomposedStringWithCanonicalMapping
    }
}

extension RawPath {
    /// This absolute path relative to `folder` (an ancestor); empty for `folder` itself.
    func relative(to folder: RawPath) -> RawPath {
        guard bytes.count > folder.bytes.count, bytes.starts(with: folder.bytes) else { return RawPath() }
        return RawPath(bytes: bytes.dropFirst(folder.bytes.count + 1))
    }
}
