import APIModel
import Glibc
import SyncPlanning
import UbiquitySettings

/// `ubq restore FOLDER --version V`: a deleted folder comes back with what it held, as
/// iCloud Drive's Recently Deleted brings a folder back whole. Its files had to be found
/// with `ubq deleted` and restored one by one.
extension SyncEngine {
    /// How long before a folder's deletion an item below it may have gone and still be
    /// taken as deleted with it. An `rm -rf` goes out in one pass (deletions wait for their
    /// burst to end), so its items' deletions are stamped within a moment of the folder's;
    /// a minute also covers a tree deleted in two passes. An item deleted earlier than that,
    /// or by another device, was deleted on purpose before the folder, and stays deleted.
    static let deletedWithFolderMilliseconds: Int64 = 60_000

    /// Brings back the folder `history` names, which must be deleted, with every item below
    /// it deleted with it (`DeletedItem.wentWith`): files and links at their last version,
    /// published at once (as `restore` publishes one), and folders made here with their
    /// mode, for the pass that follows to publish. An item that cannot be restored (an edit
    /// not synced yet is at its path, its last version expired) is left as it is and named
    /// in the result's problems; the others are restored all the same. What stops the
    /// whole container (the mirror went away, this device's log was written by another)
    /// stops the restore: thrown, with what was restored until then left for the next pass
    /// to publish. `wrote` says whether anything was written.
    func restoreFolder(
        _ history: PathHistory, in id: ContainerID, container: ContainerSync, now: Int64, wrote: inout Bool
    ) throws(SyncError) -> RestoreResult {
        let deleted = deletedItems(in: container, under: history.path, id: id, now: now)
        guard let folder = deleted.first(where: { $0.path == history.path }), folder.isFolder else {
            let absolute = container.folder.appending(LocalNames.relative(of: history.path, local: nil, in: container.folder)).readable
            guard Sys.lstat(absolute) != nil else {
                throw SyncError(
                    .unknownItem,
                    "\(history.path) is not deleted in the mirror, only missing here: its deletion waits for `ubq sync --confirm-deletes` (`ubq sync --restore-deletes` brings it back), or it was not downloaded yet (`ubq sync`)")
            }
            throw SyncError(
                .unknownItem,
                "\(history.path) is a folder, and not a deleted one: the files in it have versions of their own (`ubq versions \(history.path)/FILE`; `ubq deleted \(history.path)` lists those deleted)")
        }
        if let renamed = renamedContent(of: folder, among: deleted) {
            throw SyncError(.unknownItem, "\(history.path) was renamed or moved, not deleted: \(renamed.from) is now \(renamed.to)")
        }
        let items = deleted.filter { $0.path != folder.path && $0.wentWith(folder, window: deletedWithFolderMilliseconds) }.sorted { $0.path < $1.path }
        var result = RestoreResult(restored: [], problems: items.filter { $0.last == nil }.map { "\($0.path): its last version has expired" })
        let folders = [folder] + items.filter(\.isFolder)
        for item in folders + items.filter({ $0.last != nil && !$0.isFolder }) {
            if let stopped = container.stopped { throw stopped }
            do {
                guard let last = item.last else { continue }
                if item.isFolder {
                    try makeFolder(item.path, in: container)
                    wrote = true
                } else {
                    try restoreItem(last, of: item.history, in: id, container: container, wrote: &wrote)
                }
                result.restored.append(item.path)
            } catch where [.ownLogChanged, .mirrorUnavailable, .corruptMirror].contains(error.code) {
                throw error
            } catch {
                result.problems.append("\(item.path): \(error.message)")
            }
        }
        // Last, deepest first: a read-only folder made so at once would refuse what goes in it.
        for item in folders.reversed() where result.restored.contains(item.path) {
            setMode(of: item, in: container)
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

    /// Gives the restored folder `item` the mode its last version had, as a download would.
    private func setMode(of item: DeletedItem, in container: ContainerSync) {
        guard let state = item.last?.state else { return }
        let absolute = container.folder.appending(LocalNames.relative(of: item.path, local: nil, in: container.folder)).readable
        chmod(absolute, state.localMode)
    }
}
