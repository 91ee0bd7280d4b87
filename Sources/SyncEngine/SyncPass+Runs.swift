import SyncPlanning

/// What a pass did ahead, under one claim, for a run of like actions: uploads staged
/// (`Executor.stage(_:)`) or downloads installed (`Executor.install(_:)`). Each action of
/// the run takes its outcome when its turn comes; one with none does its work alone.
struct PreparedRun {
    private var staged: [String: Result<StagedObject?, any Error>] = [:]
    private var installed: [String: Result<Executor.Installed, any Error>] = [:]
    /// The run's actions, when its claim could not be taken: each then takes its own, so
    /// that an app holding one file for long keeps only that file waiting. Were they to
    /// start runs again, each run holding that file would wait for it in turn.
    private var alone: Set<String> = []
    /// The outcomes of the actions whose work a folder's rename did (`FolderMove`). Kept
    /// until taken, as runs come and go: the actions are spread over the plan, by depth.
    private var moved: [String: Result<Executor.Installed, any Error>] = [:]

    /// Whether `path`'s action was prepared (it then must not start another run).
    func holds(_ path: String) -> Bool { staged[path] != nil || installed[path] != nil || alone.contains(path) || moved[path] != nil }

    mutating func takeStaged(_ path: String) -> Result<StagedObject?, any Error>? { staged.removeValue(forKey: path) }

    mutating func takeInstalled(_ path: String) -> Result<Executor.Installed, any Error>? {
        installed.removeValue(forKey: path) ?? moved.removeValue(forKey: path)
    }

    /// Renames the folder `move` whole (`Executor.moveFolder`), for its actions to take
    /// their outcomes; when it cannot, they do their own work.
    mutating func prepare(_ move: FolderMove, local: LocalTree, executor: Executor) throws {
        let target = LocalNames.relative(of: move.to, local: local, in: executor.containerFolder)
        moved.merge(try executor.moveFolder(move, entries: local.entries, to: target)) { first, _ in first }
    }

    /// Prepares the run that starts `actions`, if it holds at least two like actions;
    /// what the previous run left untaken is discarded first (normally nothing: a run's
    /// actions are performed before the next run starts).
    mutating func prepare(_ actions: ArraySlice<SyncAction>, pass: SyncPass, local: LocalTree, executor: Executor) throws {
        if let uploads = pass.uploads(from: actions, local: local, executor: executor) {
            discard(executor)
            staged = executor.stage(uploads)
            if staged.isEmpty { alone = Set(uploads.map(\.path)) }
        } else if let downloads = pass.downloads(from: actions, local: local, executor: executor) {
            discard(executor)
            installed = try executor.install(downloads)
            if installed.isEmpty { alone = Set(downloads.map(\.version.path)) }
        }
    }

    /// Removes what was staged for publishes that were not performed (the pass stopped
    /// early): nothing names these objects yet. Installed files not taken stay: they are
    /// on disk with the mirror's content, and the next pass adopts them.
    mutating func discard(_ executor: Executor) {
        executor.discard(staged)
        staged = [:]
        installed = [:]
        alone = []
    }
}

extension SyncPass {
    /// The uploads of the run of file publishes that starts `actions`, to stage under one
    /// claim (`Executor.stage(_:)`); nil unless the run holds at least two.
    func uploads(from actions: ArraySlice<SyncAction>, local: LocalTree, executor: Executor) -> [Upload]? {
        var uploads: [Upload] = []
        for action in actions.prefix(Executor.uploadsPerClaim) {
            guard case .publish(let path, let state, _, _) = action,
                let upload = Upload(path, state: state, local: local.entries[path], in: executor.containerFolder)
            else { break }
            uploads.append(upload)
        }
        return uploads.count > 1 ? uploads : nil
    }

    /// The downloads of the run of file applies that starts `actions`, to install under one
    /// claim (`Executor.install(_:)`), up to `Executor.downloadBytesPerClaim`; nil unless
    /// the run holds at least two.
    func downloads(from actions: ArraySlice<SyncAction>, local: LocalTree, executor: Executor) -> [Download]? {
        var downloads: [Download] = []
        var bytes: Int64 = 0
        for action in actions.prefix(Executor.downloadsPerClaim) {
            guard case .apply(let version, _) = action, version.movedFrom.flatMap({ movableOrigin($0, local: local) }) == nil,
                let download = Download(
                    version, at: LocalNames.relative(of: version.path, local: local, in: executor.containerFolder),
                    expected: local.entries[version.path], in: executor.containerFolder)
            else { break }
            bytes = bytes.addingSaturated(download.state.size)
            if bytes > Executor.downloadBytesPerClaim, !downloads.isEmpty { break }
            downloads.append(download)
        }
        return downloads.count > 1 ? downloads : nil
    }
}
