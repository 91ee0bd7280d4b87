import APIModel
import SyncPlanning
import UbiquitySettings

/// `ubq restore FOLDER --version V`: a deleted folder comes back with what it held, as
/// iCloud Drive's Recently Deleted brings a folder back whole. Its files had to be found
/// with `ubq deleted` and restored one by one.
extension SyncEngine {
    /// How long before a folder's deletion an item below it may have gone and still be
    /// taken as deleted with it. An `rm -rf` goes out in one pass (deletions wait for their
    /// burst to end), so its items share the folder's deletion time; a minute also covers
    /// a tree deleted in two passes. An item deleted earlier than that was deleted on
    /// purpose before the folder, and stays deleted.
    static let deletedWithFolderMilliseconds: Int64 = 60_000

    /// Brings back the folder `history` names, which must be deleted, with every item below
    /// it deleted with it (`deletedWithFolderMilliseconds`): files and links at their last
    /// version, published at once (as `restore` publishes one), and folders made here, for
    /// the pass that follows to publish. An item that cannot be restored (an edit not
    /// synced yet is at its path) is left as it is and named in the result's problems; the
    /// others are restored all the same.
    func restoreFolder(_ history: PathHistory, in id: ContainerID, container: ContainerSync, now: Int64) throws(SyncError) -> RestoreResult {
        guard let deletion = history.winner, deletion.isDeletion else {
            throw SyncError(
                .unknownItem,
                "\(history.path) is a folder, and not a deleted one: the files in it have versions of their own (`ubq versions \(history.path)/FILE`; `ubq deleted \(history.path)` lists those deleted)")
        }
        let since = deletion.time - deletedWithFolderMilliseconds
        let items = deletedItems(in: container, under: history.path, id: id, now: now).filter {
            $0.history.path != history.path && $0.deletion.time >= since
        }
        var result = RestoreResult(restored: [])
        let folders = items.filter { $0.last.state?.kind == .folder }.map(\.history.path)
        for folder in ([history.path] + folders).sorted() {
            do {
                try makeFolder(folder, in: container)
                result.restored.append(folder)
            } catch {
                result.problems.append("\(folder): \(error.message)")
            }
        }
        for item in items.filter({ $0.last.state?.kind != .folder }).sorted(by: { $0.history.path < $1.history.path }) {
            do {
                try restoreItem(item.last, of: item.history, in: id, container: container)
                result.restored.append(item.history.path)
            } catch {
                result.problems.append("\(item.history.path): \(error.message)")
            }
        }
        return result
    }

    /// Makes the folder at `path` (container-relative) and those above it that are missing,
    /// never through a link; a file or a link in the way is an error (ENOTDIR, ELOOP).
    private func makeFolder(_ path: String, in container: ContainerSync) throws(SyncError) {
        let relative = LocalNames.relative(of: path, local: nil, in: container.folder).readable
        let made = try Sys.makeFolders(relative, beneath: container.folder.readable)
        try ConcurrentSync.fsyncFolders(made.map(Sys.parent(of:)), faults: faults)
    }
}
