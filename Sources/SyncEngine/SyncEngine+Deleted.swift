import APIModel
import SyncPlanning
import UbiquitySettings

/// The items deleted from a container whose content the history still keeps: where a
/// user finds what `restore` can bring back after the deletions went out (a path is needed
/// to ask `versions`, and a deleted file is no longer there to be named from).
extension SyncEngine {
    /// An item whose current version is a deletion, with its last version the history keeps
    /// with something in it (content, a link's target, a folder).
    struct DeletedItem {
        var history: PathHistory
        var deletion: VersionRecord
        var last: VersionRecord
    }

    /// The files and links deleted at or below `folder` (container-relative; "" for the
    /// whole container), and the folders deleted there that were not in a folder deleted
    /// too (restoring one brings back what it held), newest deletion first, each with its
    /// last version. A rename's departure is no deletion: its content lives on under the
    /// new name (`movedFrom`). Call on the sync thread (like `passAll`).
    public func deletedItems(container id: ContainerID, under folder: String, now: Int64 = SyncClock.nowMilliseconds()) throws(SyncError) -> [DeletedItemInfo] {
        guard let container = container(id) else { throw SyncError(.unknownItem, "no container \(id.identifier)") }
        let deleted = deletedItems(in: container, under: folder, id: id, now: now)
        let folders = Set(deleted.filter { $0.last.state?.kind == .folder }.map(\.history.path))
        let shown = deleted.filter { $0.last.state?.kind != .folder || !folders.contains(Sys.parent(of: $0.history.path)) }
        guard !shown.isEmpty else { return [] }
        let names = deviceNames()
        return shown.sorted { ($0.deletion.time, $1.history.path) > ($1.deletion.time, $0.history.path) }.map { item in
            DeletedItemInfo(
                container: id.identifier, path: item.history.path,
                deletion: VersionInfo(item.deletion, deviceName: names[item.deletion.id.device] ?? item.deletion.id.device, current: true, conflict: false, layout: layout),
                lastVersion: VersionInfo(item.last, deviceName: names[item.last.id.device] ?? item.last.id.device, current: false, conflict: false, layout: layout))
        }
    }

    /// Every item deleted at or below `folder` whose last version the retention keeps, in
    /// no order; a file or link whose content went on under another name is left out.
    func deletedItems(in container: ContainerSync, under folder: String, id: ContainerID, now: Int64) -> [DeletedItem] {
        _ = container.readLogs()
        let below = Subtrees([folder])
        let histories = container.histories.values.filter { folder.isEmpty || below.contains($0.path) }
        let movedAway = Self.contentMovedAway(from: Set(histories.map(\.path)), in: container.histories.values)
        let floor = floor(in: id)
        return histories.compactMap { history in
            guard let deletion = history.winner, deletion.isDeletion,
                let last = retention.kept(history, now: now, floor: floor).first(where: { $0.state != nil })
            else { return nil }
            if let state = last.state, movedAway[history.path, default: []].contains(Self.contentKey(state)) { return nil }
            return DeletedItem(history: history, deletion: deletion, last: last)
        }
    }

    /// What tells one content from another: a file's hash, a link's text. Folders are
    /// all alike: a folder renamed away from a path took what it held with it.
    private static func contentKey(_ state: EntryState) -> String {
        switch state.kind {
        case .folder: "/"
        case .symlink: "-> " + (state.linkTarget ?? "")
        case .file: state.sha256 ?? ""
        }
    }

    /// For each of `paths`, the contents that arrived elsewhere renamed from it.
    private static func contentMovedAway(from paths: Set<String>, in histories: some Sequence<PathHistory>) -> [String: Set<String>] {
        var moved: [String: Set<String>] = [:]
        for history in histories {
            for record in history.records {
                guard let origin = record.movedFrom, paths.contains(origin), let state = record.state else { continue }
                moved[origin, default: []].insert(contentKey(state))
            }
        }
        return moved
    }
}
