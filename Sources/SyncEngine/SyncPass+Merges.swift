import Foundation
import Glibc
import RawPaths
import SyncPlanning

extension SyncPass {
    /// Merges the conflicts whose versions are all diaries (`DiaryConflictMerge`), or all
    /// key-value stores (`KeyValueConflictMerge`), where this device holds the current
    /// version unchanged: the merge is written locally and published with every merged head
    /// (and the winner's twins: `PathHistory.twins`) as its parent, which ends the conflict
    /// on every device.
    func mergeDocumentConflicts(executor: Executor, report: inout PassReport) throws {
        let conflicts = container.conflicts
        guard !conflicts.isEmpty else { return }
        let base = try database.base(container: container.id, under: Array(conflicts.keys))
        for (path, losers) in conflicts.sorted(by: { $0.key < $1.key }) {
            guard let history = container.histories[path], let winner = history.winner, winner.state?.kind == .file,
                let agreed = base[path], agreed.entry.version == winner.id, let local = currentLocal(path, agreed)
            else { continue }
            let read: [UInt8]?
            do {
                read = try mergedBytes(history, winner: winner, losers: losers)
            } catch {
                // One conflict whose versions cannot be read (a damaged object, a wrong line)
                // stays a conflict: the rest of the pass goes on, and so do later passes.
                report.problems.append("\(path): its conflict versions were not merged: \(error)")
                continue
            }
            guard let merged = read else { continue }
            let batch = try ChangeBatch(store: executor.store, database: database, container: container, faults: faults)
            let merge = {
                try executor.publishMerge(
                    path, bytes: merged, mode: winner.state?.mode ?? 0o644,
                    parents: [winner.id] + history.twins(of: winner.id) + losers.map(\.id), local: local, batch: batch)
            }
            let folder = Sys.parent(of: container.folder.appending(path).readable)
            try executor.folderLift.map { try $0.writing(in: [folder], merge) } ?? merge()
            try batch.finish()
            report.merged += 1
        }
    }

    /// The local file at `path`, if it is still exactly what the base recorded: as the
    /// signature the base kept says, or else as reading it says (the base keeps none for a
    /// file written a moment before it was read: `LocalSignature.racyWindowNanoseconds`).
    private func currentLocal(_ path: String, _ agreed: BaseRow) -> LocalEntry? {
        let raw = container.folder.appending(path)
        guard let state = agreed.entry.state, state.kind == .file, let info = Sys.lstat(raw.readable) else { return nil }
        let signature = LocalSignature(stat: info)
        if signature != agreed.signature {
            guard (info.st_mode & S_IFMT) == S_IFREG, let content = try? ContentHashing.hash(path: raw.readable, refusingWriters: true),
                content.sha256 == state.sha256, content.size == state.size
            else { return nil }
        }
        return LocalEntry(rawPath: RawPath(path), state: state, signature: signature, lastingSignature: nil)
    }

    private func mergedBytes(_ history: PathHistory, winner: VersionRecord, losers: [VersionRecord]) throws -> [UInt8]? {
        let store = ContentStore(layout: container.layout, device: container.device)
        guard store.mayBePropertyList(winner), var merged = try store.bytes(of: winner) else { return nil }
        for loser in losers {
            guard let loserBytes = try store.bytes(of: loser) else { return nil }
            if KeyValueConflictMerge.applies(to: history.path) {
                guard let next = KeyValueConflictMerge.merge(winner: merged, loser: loserBytes) else { return nil }
                merged = next
                continue
            }
            // An ancestor whose content has expired from the store (HistoryRetention) merges
            // without it: every field both sides hold differently is kept twice.
            let ancestor = history.commonAncestor(of: winner.id, loser.id).flatMap { try? store.bytes(of: $0) }
            guard let next = DiaryConflictMerge.merge(winner: merged, loser: loserBytes, ancestor: ancestor, loserVersion: loser.id) else {
                return nil
            }
            merged = next
        }
        return merged
    }
}
