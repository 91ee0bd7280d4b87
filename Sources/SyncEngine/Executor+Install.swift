import Glibc
import SyncPlanning

/// Putting a new item in place of what the scan saw. The slow part (fetching the content
/// from the mirror: seconds for a large file on a network mount) happens first, beside
/// the target; the check that the target is still what the scan saw comes after it, just
/// before the rename. Editors that do not coordinate (vim, gedit, `cp`) may save at any
/// moment: a check made before the fetch would let the rename replace a save made during it.
extension Executor {
    /// What `install` did, and the signature the new item has on disk (nil when it cannot
    /// vouch for it: the next scan then hashes the file rather than trust the signature).
    struct Installed {
        var outcome: Outcome
        var signature: LocalSignature?
        /// Folders that gained an entry (a folder made in them) and are not fsynced yet:
        /// the batch fsyncs them, many at once, before it records the base
        /// (`ChangeBatch.syncFolders`). Otherwise a crash could lose a folder whose path the
        /// base records, and the next pass would publish its deletion.
        var unsyncedFolders: [String] = []
    }

    /// Makes `absolute` hold `state`, if it still holds `expected` (nil: nothing). A file
    /// comes from `origin` when that local file already has the content (a rename another
    /// device made), else from the store. Call holding a write claim on `absolute`.
    func install(_ state: EntryState, at absolute: String, replacing expected: LocalEntry?, renamingFrom origin: LocalEntry?) throws -> Installed {
        let installed: Installed
        switch state.kind {
        case .folder:
            if let info = Sys.lstat(absolute), info.st_mode & S_IFMT != S_IFDIR { unlink(absolute) }
            let mode = try folderLift?.mode(forFolder: absolute, synced: state.localMode) ?? state.localMode
            try Sys.makeFolders(absolute, mode: mode)
            chmod(absolute, mode)
            // Its parent is fsynced with the batch's others: a first download of 10,000
            // folders into one would cost 10,000 fsyncs of it one by one.
            return Installed(outcome: .done, signature: nil, unsyncedFolders: [Sys.parent(of: absolute)])
        case .symlink:
            let staging = DurableFile.stagingPath(beside: absolute)
            guard symlink(state.linkTarget ?? "", staging) == 0 else { throw SyncError.system("symlink", staging) }
            installed = try placeStaged(staging, at: absolute, replacing: expected)
        case .file:
            if let origin, Self.renames(origin, into: state) {
                let source = containerFolder.appending(origin.rawPath).readable
                // The user's own file: left where it is if it changed or the target did.
                guard Self.unchanged(source, since: origin) else { return Installed(outcome: .skipped("\(source) changed since it was read")) }
                installed = try place(source, at: absolute, replacing: expected, mode: state.localMode)
                if installed.outcome == .done { try Sys.fsyncFolder(Sys.parent(of: source)) }
            } else {
                let staging = DurableFile.stagingPath(beside: absolute)
                try store.fetch(state.sha256 ?? "", size: state.size, to: staging, mode: state.localMode, modified: state.modified)
                installed = try placeStaged(staging, at: absolute, replacing: expected)
            }
        }
        if installed.outcome == .done { try Sys.fsyncFolder(Sys.parent(of: absolute)) }
        return installed
    }

    /// Whether installing `state` renames the local file `origin` (a rename another device
    /// made, of a file this one holds the same) instead of fetching it from the store.
    static func renames(_ origin: LocalEntry, into state: EntryState) -> Bool {
        state.kind == .file && origin.state.sha256 == state.sha256 && origin.state.size == state.size
    }

    /// The checkpoint between writing the new item beside its target and putting it in place.
    static let stagedCheckpoint = "install: new item beside the target, not in place"

    /// `place` for an item written under a staging name: removed unless it went in.
    func placeStaged(_ staging: String, at absolute: String, replacing expected: LocalEntry?) throws -> Installed {
        try faults?.checkpoint(Self.stagedCheckpoint)
        do {
            let installed = try place(staging, at: absolute, replacing: expected, mode: nil)
            if installed.outcome != .done { unlink(staging) }
            return installed
        } catch {
            unlink(staging)
            throw error
        }
    }

    /// Renames `item` to `absolute` if `absolute` still holds `expected`; with nothing
    /// expected, only if nothing is there (`renameNoReplace`: a file saved there meanwhile
    /// stays). With something expected, a save that lands between the check and the
    /// rename (microseconds, under our write claim: only from a process that does not
    /// coordinate) is still replaced; Linux has no rename that checks the target's content.
    func place(_ item: String, at absolute: String, replacing expected: LocalEntry?, mode: mode_t?) throws -> Installed {
        guard let before = Sys.lstat(item) else { throw SyncError.system("lstat", item) }
        guard Self.unchanged(absolute, since: expected) else { return Installed(outcome: .skipped("\(absolute) changed since it was read")) }
        var replacing = expected != nil
        if expected?.state.kind == .folder {
            // rename(2) puts no file or link in a folder's place: the folder goes first, if
            // it is empty (the plan removes what was in it before). Something still inside
            // (saved meanwhile) keeps it, and the next pass plans again.
            guard rmdir(absolute) == 0 || errno == ENOENT else {
                return Installed(outcome: .skipped("\(absolute) is a folder that is not empty"))
            }
            replacing = false
        }
        let renamedAt = LocalSignature.now()
        guard try Sys.rename(item, absolute, replacing: replacing) else {
            return Installed(outcome: .skipped("\(absolute) appeared since it was read"))
        }
        if let mode { chmod(absolute, mode) }
        return Installed(outcome: .done, signature: Self.signature(of: absolute, asPlaced: before, renamedAt: renamedAt, window: racyWindow))
    }

    /// The signature of the item now at `absolute`, if it is still the item `before`
    /// describes: same inode, size and modification time (the rename and a chmod change
    /// only its change time). Anything else means someone wrote it since: nil.
    ///
    /// Nil too when the item was last written too shortly before it was renamed into place
    /// (at `renamedAt`) for the signature to vouch for it: a save of the same size just
    /// after the rename could then keep the modification time as well as the change time
    /// (`LocalSignature.racyWindowNanoseconds`, or `window`). The next scan reads the file
    /// instead.
    static func signature(
        of absolute: String, asPlaced before: stat, renamedAt: Int64, window: Int64 = LocalSignature.racyWindowNanoseconds
    ) -> LocalSignature? {
        guard let after = Sys.lstat(absolute) else { return nil }
        let placed = LocalSignature(stat: before), now = LocalSignature(stat: after)
        guard now.inode == placed.inode, now.size == placed.size, now.modifiedNanoseconds == placed.modifiedNanoseconds,
            LocalSignature.isSettled(placed.modifiedNanoseconds, before: renamedAt, window: window)
        else { return nil }
        return now
    }
}

extension Executor.Installed {
    init(outcome: Executor.Outcome) {
        self.init(outcome: outcome, signature: nil)
    }
}
