import CivilCalendar
import Coordination
import Foundation
import Glibc
import Indexing
import RawPaths
import SyncPlanning

/// Applies planned actions, one at a time or a run of like ones under one claim
/// (`stage(_:)`, `install(_:)`). Each re-checks its precondition just before it commits
/// (the disk may have changed since the plan), writes atomically, and records the new
/// base in the same transaction as its journal entry (DESIGN.md, decisions 3 and 6).
struct Executor {
    let containerID: String
    let containerFolder: RawPath
    let store: ContentStore
    let coordinator: FileCoordinator?
    var faults: FaultInjection?
    /// Lifts read-only folders the pass writes in, and gives folders it makes or changes
    /// their mode (`FolderLift`); nil: modes are set as they are synced.
    var folderLift: FolderLift? = nil
    /// How long before its rename into place a file must have been written for its
    /// signature to be kept (`LocalSignature.racyWindowNanoseconds`).
    var racyWindow = LocalSignature.racyWindowNanoseconds

    enum Outcome: Equatable {
        case done
        /// The precondition no longer held: the disk changed; the next pass replans.
        case skipped(String)
        /// The item stays as it is, for a reason the user is told (`why`), every pass
        /// until they act: a folder deleted elsewhere that holds what is not synced.
        case kept(why: String)
    }

    /// Stages a local change for `batch`: its content (files) and its log record, whose
    /// parents are the base's version. Nil when a deletion is no longer true (the item came
    /// back since the scan). A file's content may have been staged already, with others
    /// (`stage(_:)`): `prestaged` is that outcome. `relative`: where an item the scan did
    /// not see is, below the container folder (`LocalNames`).
    func publish(
        _ path: String, state: EntryState?, parents: [VersionID], movedFrom: String?, local: LocalEntry?, batch: ChangeBatch,
        prestaged: Result<StagedObject?, any Error>? = nil, relative: RawPath? = nil
    ) throws -> VersionRecord? {
        if let upload = Upload(path, state: state, local: local, relative: relative, in: containerFolder) {
            let staged: StagedObject?
            if let prestaged {
                staged = try prestaged.get()
            } else {
                staged = try coordinator.read(upload.absolute) { try upload.stage(in: store, through: FolderCursor(root: containerFolder)) }
            }
            if let staged { batch.stage(staged) }
        } else if state == nil, isHere(local?.rawPath ?? RawPath(path)) {
            return nil
        }
        let record = VersionRecord(
            id: batch.nextID(), path: path, parents: parents, state: state, time: SyncClock.nowMilliseconds(), movedFrom: movedFrom)
        batch.record(record, base: BaseCommit(
            state == nil ? "publish-delete" : "publish", path: path, version: record.id, state: state, signature: local?.lastingSignature))
        return record
    }

    /// Writes a merge made here (a diary) over the local file, which must still be
    /// `local`, and stages it as superseding `parents`.
    func publishMerge(_ path: String, bytes: [UInt8], mode: UInt32, parents: [VersionID], local: LocalEntry, batch: ChangeBatch) throws {
        let content = try store.store(bytes: bytes)
        let state = EntryState.file(sha256: content.sha256, size: content.size, mode: mode)
        let absolute = containerFolder.appending(local.rawPath).readable
        let outcome = try coordinator.write(absolute) { () throws -> Outcome in
            guard Self.unchanged(absolute, since: local) else { return .skipped("\(absolute) changed since it was read") }
            try DurableFile.replace(absolute, with: bytes, mode: state.localMode)
            return .done
        }
        guard outcome == .done else { throw SyncError(.changedMeanwhile, "\(absolute) changed while its conflict was merged") }
        let record = VersionRecord(id: batch.nextID(), path: path, parents: parents, state: state, time: SyncClock.nowMilliseconds())
        // No signature: the file was written just now, so a save right after it could keep
        // its signature (`LocalSignature.racyWindowNanoseconds`). The next scan reads it.
        batch.record(record, base: BaseCommit("merge", path: path, version: record.id, state: state, signature: nil))
    }

    func adopt(_ path: String, version: VersionID, state: EntryState?, local: LocalEntry?, batch: ChangeBatch) {
        batch.commit(BaseCommit("adopt", path: path, version: version, state: state, signature: local?.lastingSignature))
    }

    /// Makes the disk hold `version`'s state at its path, `relative` below the container
    /// folder (`LocalNames`), if the disk still holds `expected`. A file may have been
    /// installed already, with others (`install(_:)`): `preinstalled` is that outcome.
    func apply(
        _ version: VersionRecord, at relative: RawPath, expected: LocalEntry?, movedFromLocal: LocalEntry?, batch: ChangeBatch,
        preinstalled: Result<Installed, any Error>? = nil
    ) throws -> Outcome {
        let installed = try preinstalled?.get() ?? writeAlone(version, at: relative, expected: expected, movedFromLocal: movedFromLocal)
        guard installed.outcome == .done else { return installed.outcome }
        try faults?.checkpoint("apply: disk written, base not committed")
        batch.syncFolders(installed.unsyncedFolders)
        batch.commit(BaseCommit(
            version.state == nil ? "delete-local" : "download", path: version.path, version: version.id, state: version.state,
            signature: installed.signature))
        return .done
    }

    /// `apply`'s disk work for one version, under its own claim: a coordinated move when
    /// it renames the local file another device renamed (`movedFromLocal`).
    private func writeAlone(_ version: VersionRecord, at relative: RawPath, expected: LocalEntry?, movedFromLocal: LocalEntry?) throws -> Installed {
        let absolute = containerFolder.appending(relative).readable
        if let origin = movedFromLocal, let state = version.state, Self.renames(origin, into: state) {
            let source = containerFolder.appending(origin.rawPath).readable
            return try coordinatedMove(from: source, to: absolute, moved: { $0.outcome == .done }) { () throws -> Installed in
                try write(version, at: absolute, expected: expected, movedFromLocal: movedFromLocal)
            }
        }
        return try coordinator.write(absolute, options: version.state == nil ? .forDeleting : []) { () throws -> Installed in
            try write(version, at: absolute, expected: expected, movedFromLocal: movedFromLocal)
        }
    }

    /// `writeAlone`'s work, holding its claim.
    private func write(_ version: VersionRecord, at absolute: String, expected: LocalEntry?, movedFromLocal: LocalEntry?) throws -> Installed {
        // A deletion whose item is gone already is done: typically a rename this pass
        // applied took the file away (`movedFromLocal`) before its old path's turn came.
        if version.state == nil, Sys.lstat(absolute) == nil { return Installed(outcome: .done) }
        // Checked here so that a changed file costs no download; `install` checks again
        // as the new item goes in.
        guard Self.unchanged(absolute, since: expected) else { return Installed(outcome: .skipped("\(absolute) changed since it was read")) }
        let madeIn = try makeParentFolders(of: absolute)
        guard let state = version.state else { return Installed(outcome: try remove(absolute, expected: expected)) }
        var installed = try install(state, at: absolute, replacing: expected, renamingFrom: movedFromLocal)
        installed.unsyncedFolders += madeIn
        return installed
    }

    func remove(_ absolute: String, expected: LocalEntry?) throws -> Outcome {
        guard let expected else { return .done }
        if expected.state.kind == .folder {
            if rmdir(absolute) != 0 && errno != ENOENT {
                // Reported each pass that plans it, without making the next look at everything.
                guard errno == ENOTEMPTY || errno == EEXIST else {
                    return .kept(why: "\(absolute) was deleted on another device, but cannot be removed here: \(String(cString: strerror(errno)))")
                }
                return .kept(why: Self.keptFolder(absolute))
            }
        } else if unlink(absolute) != 0 && errno != ENOENT {
            throw SyncError.system("unlink", absolute)
        }
        try Sys.fsyncFolder(Sys.parent(of: absolute))
        return .done
    }

    /// Why the folder at `absolute`, deleted on another device, stays: something in it is
    /// not synced (ignored: an editor's swap file, what `.ubqignore` names; or saved there
    /// since the scan, which the next pass publishes). Deleting it would lose that.
    static func keptFolder(_ absolute: String) -> String {
        let names = MirrorView.names(in: RawPath(absolute)).map { RawPath(bytes: $0).readable }.sorted()
        let shown = names.prefix(3).joined(separator: ", ") + (names.count > 3 ? " and \(names.count - 3) more" : "")
        return "\(absolute) was deleted on another device, but stays here: it holds what is not synced (\(shown)). Remove that, and the folder goes"
    }

    /// Whether the container holds an item at `relative`, reached through no symlink (what
    /// a link leads to is not the container's); true when its status cannot be read.
    func isHere(_ relative: RawPath) -> Bool {
        do {
            return try FileStatus.read(relative, beneath: containerFolder) != nil
        } catch {
            return true
        }
    }

    /// Makes the folders that hold `absolute`, a path in the container, through no link
    /// (`Sys.makeParentFolders(of:beneath:)`); returns the folders that gained an entry,
    /// to be fsynced before the base counts on them.
    func makeParentFolders(of absolute: String) throws(SyncError) -> [String] {
        let root = containerFolder.readable
        guard let relative = absolute.below(root) else { throw SyncError(.unknownItem, "\(absolute) is not in \(root)") }
        return try Sys.makeParentFolders(of: String(relative), beneath: root)
    }

    /// Whether the item at `absolute` is still what the scan saw (`nil`: still absent).
    static func unchanged(_ absolute: String, since expected: LocalEntry?) -> Bool {
        guard let info = Sys.lstat(absolute) else { return expected == nil }
        guard let expected else { return false }
        if expected.state.kind == .folder { return info.st_mode & S_IFMT == S_IFDIR }
        return LocalSignature(stat: info) == expected.signature
    }

}

extension LocalSignature {
    init(stat info: stat) {
        self.init(
            inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modifiedNanoseconds: FileTime.nanoseconds(seconds: Int64(info.st_mtim.tv_sec), nanoseconds: Int64(info.st_mtim.tv_nsec)),
            changedNanoseconds: FileTime.nanoseconds(seconds: Int64(info.st_ctim.tv_sec), nanoseconds: Int64(info.st_ctim.tv_nsec)))
    }
}
