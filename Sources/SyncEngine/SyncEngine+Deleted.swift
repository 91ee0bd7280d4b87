import APIModel
import SyncPlanning
import UbiquitySettings

/// The items deleted from a container whose content the history still keeps: where a
/// user finds what `restore` can bring back after the deletions went out (a path is needed
/// to ask `versions`, and a deleted file is no longer there to be named from).
extension SyncEngine {
    /// An item whose current version is a deletion.
    struct DeletedItem {
        var history: PathHistory
        var deletion: VersionRecord
        /// Its last version the retention keeps with something in it (content, a link's
        /// target, a folder); nil when none is kept any more.
        var last: VersionRecord?
        /// Where its content went on, if the deletion was a rename's departure
        /// (`movedFrom`): then it was no deletion.
        var movedTo: String?

        var path: String { history.path }
        var isFolder: Bool { last?.state?.kind == .folder }

        /// Whether it went with `folder` (deleted): by the device that deleted the folder,
        /// at most `window` milliseconds before (`restoreFolder`).
        func wentWith(_ folder: DeletedItem, window: Int64) -> Bool {
            let (since, overflow) = folder.deletion.time.subtractingReportingOverflow(window)  // a log line's time is its writer's word
            return deletion.id.device == folder.deletion.id.device && deletion.time >= (overflow ? .min : since)
        }
    }

    /// The files and links deleted at or below `folder` (container-relative; "" for the
    /// whole container), and the folders deleted there (restoring one brings back what went
    /// with it: a folder that went with its deleted parent is not listed), newest deletion
    /// first, each with its last version. A rename's departure is no deletion: its content
    /// lives on under the new name (`movedFrom`), and so does a folder whose files went
    /// that way. Call on the sync thread (like `passAll`).
    public func deletedItems(container id: ContainerID, under folder: String, now: Int64 = SyncClock.nowMilliseconds()) throws(SyncError) -> [DeletedItemInfo] {
        guard let container = container(id) else { throw SyncError(.unknownItem, "no container \(id.identifier)") }
        let deleted = deletedItems(in: container, under: folder, id: id, now: now)
        let byPath = Dictionary(deleted.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        let shown = deleted.filter { item in
            guard item.last != nil, item.movedTo == nil else { return false }
            guard item.isFolder else { return true }
            if let parent = byPath[Sys.parent(of: item.path)], parent.isFolder, item.wentWith(parent, window: deletedWithFolderMilliseconds) { return false }
            return renamedContent(of: item, among: deleted) == nil
        }
        guard !shown.isEmpty else { return [] }
        let names = deviceNames()
        let info = { (record: VersionRecord, current: Bool) in
            VersionInfo(record, deviceName: names[record.id.device] ?? record.id.device, current: current, conflict: false, layout: self.layout)
        }
        let folders = Dictionary(shown.filter(\.isFolder).map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        return shown.sorted { ($0.deletion.time, $1.path) > ($1.deletion.time, $0.path) }.compactMap { item in
            item.last.map {
                DeletedItemInfo(
                    container: id.identifier, path: item.path, deletion: info(item.deletion, true), lastVersion: info($0, false),
                    folder: outermostFolder(item, wentWith: folders))
            }
        }
    }

    /// The outermost of `folders` (by path) strictly above `item` that it went with:
    /// restoring that folder brings it back (`restoreFolder`).
    private func outermostFolder(_ item: DeletedItem, wentWith folders: [String: DeletedItem]) -> String? {
        var outermost: String?
        var path = item.path
        while path.contains("/") {
            path = Sys.parent(of: path)
            if let folder = folders[path], item.wentWith(folder, window: deletedWithFolderMilliseconds) { outermost = path }
        }
        return outermost
    }

    /// Every item deleted at or below `folder` (itself included), in no order.
    func deletedItems(in container: ContainerSync, under folder: String, id: ContainerID, now: Int64) -> [DeletedItem] {
        _ = container.readLogs()
        let below = Subtrees([folder])
        let histories = container.histories.values.filter { folder.isEmpty || below.contains($0.path) }
        let movedAway = Self.contentMovedAway(from: Set(histories.map(\.path)), in: container.histories.values)
        let floor = floor(in: id)
        return histories.compactMap { history in
            guard let deletion = history.winner, deletion.isDeletion else { return nil }
            let last = retention.kept(history, now: now, floor: floor).first { $0.state != nil }
            let movedTo = last?.state.flatMap { movedAway[history.path]?[Self.contentKey($0)] }
            return DeletedItem(history: history, deletion: deletion, last: last, movedTo: movedTo)
        }
    }

    /// A file below the deleted `folder` whose content went on under another name as the
    /// folder went (`DeletedItem.wentWith`), in another folder under the same name below
    /// it (`F/sub/x` now `G/sub/x`), with where it went: the folder was renamed or moved,
    /// not deleted (a folder's own arrival names no origin; its files' do). A file moved up
    /// out of it before the rest was deleted is no sign of that.
    func renamedContent(of folder: DeletedItem, among deleted: [DeletedItem]) -> (from: String, to: String)? {
        let below = Subtrees([folder.path])
        for item in deleted where item.path != folder.path && below.contains(item.path) {
            guard let movedTo = item.movedTo, item.wentWith(folder, window: deletedWithFolderMilliseconds) else { continue }
            let name = item.path.dropFirst(folder.path.count)  // "/sub/x"
            guard movedTo.hasSuffix(name) else { continue }
            let newFolder = String(movedTo.dropLast(name.count))
            if !newFolder.isEmpty, !Subtrees([newFolder]).contains(folder.path), !below.contains(newFolder) { return (item.path, movedTo) }
        }
        return nil
    }

    /// What tells one content from another: a file's hash, a link's text.
    private static func contentKey(_ state: EntryState) -> String {
        switch state.kind {
        case .folder: "/"
        case .symlink: "-> " + (state.linkTarget ?? "")
        case .file: state.sha256 ?? ""
        }
    }

    /// For each of `paths`, the contents that arrived elsewhere renamed from it, with the
    /// path each arrived at.
    private static func contentMovedAway(from paths: Set<String>, in histories: some Sequence<PathHistory>) -> [String: [String: String]] {
        var moved: [String: [String: String]] = [:]
        for history in histories {
            for record in history.records {
                guard let origin = record.movedFrom, paths.contains(origin), let state = record.state else { continue }
                moved[origin, default: [:]][contentKey(state)] = record.path
            }
        }
        return moved
    }
}
