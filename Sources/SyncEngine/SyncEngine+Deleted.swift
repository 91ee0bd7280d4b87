import APIModel
import SyncPlanning
import UbiquitySettings

/// The items deleted from a container whose content the history still keeps: where a
/// user finds what `restore` can bring back after the deletions went out (a path is needed
/// to ask `versions`, and a deleted file is no longer there to be named from).
extension SyncEngine {
    /// The files and links deleted at or below `folder` (container-relative; "" for the
    /// whole container), and the folders deleted there (restoring one brings back what went
    /// with it), newest deletion first, each with its last version: `DeletedTree.listed`.
    /// A rename's departure is no deletion: its content lives on under the new name
    /// (`movedFrom`), and so does a folder whose files went that way. Call on the sync
    /// thread (like `passAll`).
    public func deletedItems(container id: ContainerID, under folder: String, now: Int64 = SyncClock.nowMilliseconds()) throws(SyncError) -> [DeletedItemInfo] {
        guard let container = container(id) else { throw SyncError(.unknownItem, "no container \(id.identifier)") }
        let tree = DeletedTree(deletedItems(in: container, under: folder, id: id, now: now), window: deletedWithFolderMilliseconds)
        guard !tree.listed.isEmpty else { return [] }
        let names = deviceNames()
        let info = { (record: VersionRecord, current: Bool) in
            VersionInfo(record, deviceName: names[record.id.device] ?? record.id.device, current: current, conflict: false, layout: self.layout)
        }
        return tree.listed.sorted { ($0.deletion.time, $1.path) > ($1.deletion.time, $0.path) }.compactMap { item in
            item.last.map {
                DeletedItemInfo(
                    container: id.identifier, path: item.path, deletion: info(item.deletion, true), lastVersion: info($0, false),
                    folder: tree.outermostListedFolder(of: item))
            }
        }
    }

    /// Every item deleted at or below `folder` (itself included), in no order.
    func deletedItems(in container: ContainerSync, under folder: String, id: ContainerID, now: Int64) -> [DeletedItem] {
        _ = container.readLogs()
        let below = Subtrees([folder])
        let histories = container.histories.values.filter { folder.isEmpty || below.contains($0.path) }
        let arrivals = Self.arrivals(from: Set(histories.map(\.path)), in: container.histories.values)
        let floor = floor(in: id)
        return histories.compactMap { history in
            guard let deletion = history.winner, deletion.isDeletion else { return nil }
            let last = retention.kept(history, now: now, floor: floor).first { $0.state != nil }
            let movedTo = last?.state.flatMap { state in
                arrivals[history.path, default: []].first { isPartner($0, of: deletion, content: Self.contentKey(state)) }?.path
            }
            return DeletedItem(history: history, deletion: deletion, last: last, movedTo: movedTo)
        }
    }

    /// Whether `arrival` is the other half of the rename whose departure is `deletion`:
    /// the same content, published by the same device within a minute of it. An arrival
    /// from the same path long before (a rename undone since) is not.
    private func isPartner(_ arrival: VersionRecord, of deletion: VersionRecord, content: String) -> Bool {
        guard let state = arrival.state, Self.contentKey(state) == content, arrival.id.device == deletion.id.device else { return false }
        let (gap, overflow) = arrival.time.subtractingReportingOverflow(deletion.time)  // a log line's time is its writer's word
        return !overflow && gap.magnitude <= UInt64(deletedWithFolderMilliseconds)
    }

    /// What tells one content from another: a file's hash, a link's text.
    private static func contentKey(_ state: EntryState) -> String {
        switch state.kind {
        case .folder: "/"
        case .symlink: "-> " + (state.linkTarget ?? "")
        case .file: state.sha256 ?? ""
        }
    }

    /// For each of `paths`, the versions that arrived elsewhere renamed from it.
    private static func arrivals(from paths: Set<String>, in histories: some Sequence<PathHistory>) -> [String: [VersionRecord]] {
        var moved: [String: [VersionRecord]] = [:]
        for history in histories {
            for record in history.records {
                guard let origin = record.movedFrom, paths.contains(origin), record.state != nil else { continue }
                moved[origin, default: []].append(record)
            }
        }
        return moved
    }
}
