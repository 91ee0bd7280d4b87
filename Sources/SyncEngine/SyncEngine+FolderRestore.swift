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

    /// Brings back the folder `history` names, which must be deleted, with what went with
    /// it (`DeletedTree.restorable`): files and links at their last version, published at
    /// once (as `restore` publishes one), and folders made here, for the pass that follows
    /// to publish. An item that cannot be restored (an edit not synced yet is at its path,
    /// its content missing from the store, its last version expired) is left as it is and
    /// named in the result's problems; the others are restored all the same. What stops
    /// the whole container (this device's log written by another, the mirror gone) stops
    /// the restore: thrown, with what was restored until then left for the next pass to
    /// publish. `wrote` says whether anything was written.
    func restoreFolder(
        _ history: PathHistory, in id: ContainerID, container: ContainerSync, now: Int64, wrote: inout Bool
    ) throws(SyncError) -> RestoreResult {
        let tree = DeletedTree(deletedItems(in: container, under: history.path, id: id, now: now), window: deletedWithFolderMilliseconds)
        guard let folder = tree.items[history.path] else { throw notDeleted(history.path, in: container) }
        guard folder.isFolder else {
            throw SyncError(.unknownItem, "\(history.path) was a file or a link when it was deleted, not a folder: restore one of its versions of that kind (`ubq versions`)")
        }
        if let renamed = tree.rename(of: folder) {
            throw SyncError(.unknownItem, "\(history.path) was renamed or moved, not deleted: \(renamed.from) is now \(renamed.to)")
        }
        let items = tree.restorable(with: folder).sorted { $0.path < $1.path }
        var result = RestoreResult(items: [], problems: items.filter { $0.last == nil }.map { "\($0.path): its last version has expired" })
        let folders = [folder] + items.filter(\.isFolder)
        var made: [DeletedItem] = []
        // Last, deepest first, even if the restore stops: a folder read-only at once would
        // refuse what goes in it, and one left with the mode it was made with would be
        // published so.
        defer { for folder in made.reversed() { setMode(of: folder, in: container) } }
        for item in folders + items.filter({ $0.last != nil && !$0.isFolder }) {
            if let stopped = container.stopped { throw stopped }
            guard let last = item.last else { continue }
            do {
                if item.isFolder {
                    try makeFolder(item, in: container)
                    made.append(item)
                    wrote = true
                } else {
                    try restoreItem(last, of: item.history, in: id, container: container, wrote: &wrote)
                }
                result.items?.append(item.path)
            } catch {
                if error.code == .ownLogChanged { throw error }
                try checkMirrorBeforeWriting()  // a mirror gone away mid-restore fails every item alike: said once
                result.problems?.append("\(item.path): \(error.message)")
            }
        }
        return result
    }

    /// Why `path`, a folder's path, cannot be restored as a deleted folder: it is not one.
    private func notDeleted(_ path: String, in container: ContainerSync) -> SyncError {
        let absolute = container.folder.appending(LocalNames.relative(of: path, local: nil, in: container.folder)).readable
        guard Sys.lstat(absolute) != nil else {
            return SyncError(
                .unknownItem,
                "\(path) is not deleted in the mirror, only missing here: its deletion waits for `ubq sync --confirm-deletes` (`ubq sync --restore-deletes` brings it back), or it was not downloaded yet (`ubq sync`)")
        }
        return SyncError(
            .unknownItem,
            "\(path) is a folder, and not a deleted one: the files in it have versions of their own (`ubq versions \(path)/FILE`; `ubq deleted \(path)` lists those deleted)")
    }

    /// Makes the folder `item` (and those above it that are missing), never through a
    /// link; a file or a link in the way is an error (ENOTDIR, ELOOP). It is made with its
    /// own mode plus what its owner needs to fill it (`setMode` gives it its own after).
    private func makeFolder(_ item: DeletedItem, in container: ContainerSync) throws(SyncError) {
        let relative = LocalNames.relative(of: item.path, local: nil, in: container.folder).readable
        let mode = (item.last?.state?.localMode ?? 0o755) | S_IRWXU
        let gained = try Sys.makeFolders(relative, beneath: container.folder.readable, mode: mode)
        try ConcurrentSync.fsyncFolders(gained, faults: faults)
    }

    /// Gives the restored folder `item` the mode its last version had, as a download would.
    private func setMode(of item: DeletedItem, in container: ContainerSync) {
        guard let state = item.last?.state else { return }
        let absolute = container.folder.appending(LocalNames.relative(of: item.path, local: nil, in: container.folder)).readable
        chmod(absolute, state.localMode)
    }
}
