import APIModel
import SyncPlanning
import UbiquitySettings

/// The items deleted from a container whose content the history still keeps: where a
/// user finds what `restore` can bring back after the deletions went out (a path is needed
/// to ask `versions`, and a deleted file is no longer there to be named from).
extension SyncEngine {
    /// The files and links deleted at or below `folder` (container-relative; "" for the
    /// whole container), newest deletion first, each with its last version that has
    /// content. A rename's departure is no deletion: its content lives on under the new
    /// name (`movedFrom`). Call on the sync thread (like `passAll`).
    public func deletedItems(container id: ContainerID, under folder: String, now: Int64 = SyncClock.nowMilliseconds()) throws(SyncError) -> [DeletedItemInfo] {
        guard let container = container(id) else { throw SyncError(.unknownItem, "no container \(id.identifier)") }
        _ = container.readLogs()
        let below = Subtrees([folder])
        let histories = container.histories.values.filter { folder.isEmpty || below.contains($0.path) }
        let movedAway = Self.contentMovedAway(from: Set(histories.map(\.path)), in: container.histories.values)
        var names: [String: String]?
        var found: [(time: Int64, item: DeletedItemInfo)] = []
        let floor = floor(in: id)
        for history in histories {
            guard let deletion = history.winner, deletion.isDeletion,
                let last = retention.kept(history, now: now, floor: floor).first(where: Self.hasContent),
                let content = last.state.map(Self.contentKey), !movedAway[history.path, default: []].contains(content)
            else { continue }
            let known = names ?? deviceNames()
            names = known
            let version = VersionInfo(last, deviceName: known[last.id.device] ?? last.id.device, current: false, conflict: false, layout: layout)
            let deleted = VersionInfo(deletion, deviceName: known[deletion.id.device] ?? deletion.id.device, current: true, conflict: false, layout: layout)
            found.append((deletion.time, DeletedItemInfo(container: id.identifier, path: history.path, deletion: deleted, lastVersion: version)))
        }
        return found.sorted { ($0.time, $1.item.path) > ($1.time, $0.item.path) }.map(\.item)
    }

    private static func hasContent(_ record: VersionRecord) -> Bool {
        record.state?.kind == .file || record.state?.kind == .symlink
    }

    /// What tells one content from another: a file's hash, a link's text.
    private static func contentKey(_ state: EntryState) -> String {
        state.sha256 ?? "-> " + (state.linkTarget ?? "")
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
