import Glibc
import SyncPlanning

extension SyncPass {
    /// `plan`, once the content of each local file it deletes or replaces for another
    /// device's change is in the store: the history names it, and the file here may be
    /// its last copy. An object gone from the store, or cut short (a person tidying the
    /// mirror, a replicator that lost it, a copy of the mirror that ran out of room), is
    /// stored again from the file first. A file whose content cannot be stored is left as
    /// it is this pass (its action dropped), and said.
    ///
    /// One `lstat` in the store for each such file (on a network mount, a round trip);
    /// downloads to new paths cost nothing.
    func keepingReplacedContent(_ plan: SyncPlan, local: LocalTree, executor: Executor, report: inout PassReport) -> SyncPlan {
        let missing = plan.actions.compactMap { action -> Upload? in
            guard action.replacesLocalItem, let entry = local.entries[action.path],
                let content = entry.state.sha256, action.incomingSHA256 != content,
                !ContentStore.holds(content, size: entry.state.size, in: container.layout)
            else { return nil }
            return Upload(action.path, state: entry.state, local: entry, in: container.folder)
        }
        guard !missing.isEmpty else { return plan }
        var unstored: Set<String> = []
        for upload in missing {
            do {
                try store(upload, executor: executor)
            } catch let error as SyncError where error.isOutOfSpace {
                unstored.insert(upload.path)
                report.pause(by: error, at: upload.path)
            } catch {
                unstored.insert(upload.path)
                report.incomplete = true  // the next pass tries again, whatever it is told changed
                report.noteFailure(
                    at: upload.path, download: true,
                    "left as it is for now: its content is missing from the mirror's store and could not be stored again: \(error)")
            }
        }
        var kept = plan
        kept.actions.removeAll { $0.replacesLocalItem && unstored.contains($0.path) }
        return kept
    }

    private func store(_ upload: Upload, executor: Executor) throws {
        switch executor.stage([upload])[upload.path] {
        case .success(let staged?)?: try executor.store.commit([staged], faults: faults)
        case .success(nil)?: break  // another device stored it meanwhile
        case .failure(let error)?: throw error
        case nil: throw SyncError(.changedMeanwhile, "its read claim could not be taken")
        }
    }
}

extension SyncAction {
    /// Whether the action puts another device's item (or an edit following its rename) in
    /// place of the local item at its path.
    fileprivate var replacesLocalItem: Bool {
        switch self {
        case .apply, .follow: true
        case .publish, .adopt, .relocate, .land: false  // a relocation or a landing goes where nothing is
        }
    }

    /// The content it puts there: nil for a deletion, a folder or a link.
    fileprivate var incomingSHA256: String? {
        switch self {
        case .apply(let version, _): version.state?.sha256
        case .follow(let followed):
            switch followed.edit {
            case .localFile(let state): state.sha256
            case .mirrorVersion(let version): version.state?.sha256
            case .localDeletion, .localRename: nil
            }
        case .publish, .adopt, .relocate, .land: nil
        }
    }
}
