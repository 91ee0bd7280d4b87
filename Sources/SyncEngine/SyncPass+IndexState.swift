import MetadataIndex
import RawPaths
import SyncPlanning

/// The ubiquity attributes a pass leaves in the index (`SyncedState`), following Apple's
/// meanings on a device that never evicts files (so an item is never NotDownloaded):
/// - uploaded: the local content is in the mirror;
/// - uploading: a local change waits to be published (not settled yet, failed, or sync
///   paused) — Apple's IsUploading covers both "queued" and "in progress";
/// - outdated: a newer version is in the mirror but not on disk yet (a download that
///   failed or found the file changed): DownloadingStatus Downloaded rather than Current;
/// - an item sync leaves out until the user changes it (a name it cannot carry), or never
///   carries (a FIFO), is neither uploaded nor uploading, and its UploadingError says why.
extension SyncPass {
    /// The actions of a pass's last plan that did not complete, by what they would have done.
    struct PendingActions {
        /// Every path the plan had an action for.
        var planned: Set<String> = []
        /// Local changes not published (paths).
        var publishes: Set<String> = []
        /// Mirror versions not applied to the disk (paths).
        var applies: Set<String> = []
    }

    static func pending(_ actions: [SyncAction], unfinished: Set<String>) -> PendingActions {
        var pending = PendingActions(planned: Set(actions.map(\.path)))
        for action in actions {
            let done = !unfinished.contains(action.path)
            switch action {
            case .publish where !done: pending.publishes.insert(action.path)
            case .apply where !done: pending.applies.insert(action.path)
            case .publish, .apply, .adopt: break  // done, or the disk already holds the mirror's version
            case .follow(let followed):
                pending.planned.insert(followed.from)
                if let path = followed.waitingUpload(followed: done) { pending.publishes.insert(path) }
            case .relocate(let relocation):
                // A new item: it waits for its publish where it is now.
                pending.planned.insert(relocation.from)
                pending.publishes.insert(done ? relocation.to : relocation.from)
            case .land(let landing):
                // Done, it is where it landed, published (or, in place, as published elsewhere);
                // if not, a file it was to be renamed from waits for its publish.
                pending.planned.insert(landing.version.path)
                if let source = landing.source {
                    pending.planned.insert(source.path)
                    if !done { pending.publishes.insert(source.path) }
                }
            }
        }
        return pending
    }

    /// The attributes once the pass ended: what is on disk and agreed is uploaded, what it
    /// could not publish is uploading, what it could not download is outdated.
    func indexState(local: LocalTree, pending: PendingActions, roots: [RawPath]?, report: PassReport) -> SyncedState {
        var uploaded: [RawPath] = []
        var uploading = local.deferred
        var outdated: [RawPath] = []
        for (path, entry) in local.entries {
            if pending.publishes.contains(path) {
                uploading.append(entry.rawPath)
            } else {
                uploaded.append(entry.rawPath)
                if pending.applies.contains(path) { outdated.append(entry.rawPath) }
            }
        }
        let arrived = pending.planned.filter { local.entries[$0] == nil }
        let base = arrived.isEmpty ? [:] : (try? database.base(container: container.id, under: Array(arrived))) ?? [:]
        for path in arrived where base[path]?.entry.state != nil {
            // Arrived during this pass (the scan came before): from the mirror, uploaded and
            // current unless its download did not complete; or an edit that followed a
            // rename here, which the next round publishes.
            if pending.publishes.contains(path) {
                uploading.append(RawPath(path))
                continue
            }
            uploaded.append(RawPath(path))
            if pending.applies.contains(path) { outdated.append(RawPath(path)) }
        }
        var state = SyncedState(
            uploaded: uploaded, conflicted: conflicted(local), uploading: uploading, outdated: outdated, limitedTo: roots)
        state.itemErrors = local.itemErrors.merging(Self.byLocalName(report.uploadErrors, local)) { leftOut, _ in leftOut }
        state.downloadErrors = Self.byLocalName(report.downloadErrors, local)
        return state
    }

    /// `errors` by the names the index has the items under (the bytes on disk).
    private static func byLocalName(_ errors: [String: String], _ local: LocalTree) -> [RawPath: String] {
        Dictionary(errors.map { (local.entries[$0.key]?.rawPath ?? RawPath($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// The attributes while the mirror cannot be reached: only the disk and the base are
    /// read. Items that differ from the base wait for an upload, with `reason` as their
    /// uploading error; whether newer versions wait in the mirror is unknown, so the
    /// downloading attributes stay as they were.
    func stateWhilePaused(reason: String) throws -> SyncedState {
        let roots = try scope.flatMap { try widened($0) }
        let base = try database.base(container: container.id, under: roots.map { $0.compactMap { SyncPath.key($0) } })
        let local = LocalTree.scan(
            containerFolder: container.folder, ignore: ignore, base: base, roots: roots, quietNanoseconds: quietNanoseconds)
        var uploaded: [RawPath] = []
        var uploading = local.deferred
        for (path, entry) in local.entries {
            if base[path]?.entry.state == entry.state { uploaded.append(entry.rawPath) } else { uploading.append(entry.rawPath) }
        }
        var state = SyncedState(
            uploaded: uploaded, conflicted: conflicted(local), uploading: uploading, outdated: nil, uploadError: reason,
            limitedTo: roots)
        state.itemErrors = local.itemErrors
        return state
    }

    private func conflicted(_ local: LocalTree) -> [RawPath] {
        container.conflicts.keys.map { local.entries[$0]?.rawPath ?? RawPath($0) }
    }
}

extension FollowedMove {
    /// The path whose content waits for a publish once the follow's round is over: the new
    /// path if the edit moved there (the next round publishes it), else the old one if the
    /// edit was made here and stayed; nil if the edit stayed and is the mirror's already,
    /// or is a deletion or a rename (nothing on the disk waits: a rename's new name waits
    /// for its own publish).
    func waitingUpload(followed: Bool) -> String? {
        if edit.carriesNoContent { return nil }
        if followed { return move.path }
        if case .adoptDeletion = departure { return from }
        return nil
    }
}

extension SyncAction {
    /// Whether the action is to change the disk for another device's version (a failure
    /// is then the item's downloading error, not its uploading one).
    var changesTheDisk: Bool {
        switch self {
        case .apply, .land: true
        case .publish, .adopt, .follow, .relocate: false
        }
    }
}
