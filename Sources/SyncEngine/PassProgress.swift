import APIModel
import Synchronization
import SyncPlanning

/// The live counts of one container's pass, written by the pass (on the sync thread) once
/// per planned round and once per action, read by status requests from any thread. One
/// small lock per action costs nothing next to the action's own I/O.
final class PassProgress: Sendable {
    private let counts = Mutex(SyncProgress())

    /// A round planned `actions` (a pass plans up to three rounds: totals grow).
    func planned(_ actions: [SyncAction]) {
        let bytes = actions.lazy.map(\.transferBytes).saturatedSum
        counts.withLock { progress in
            progress.total += actions.count
            progress.bytesTotal = progress.bytesTotal.addingSaturated(bytes)
        }
    }

    /// One action is finished, however it ended.
    func finished(_ action: SyncAction) {
        let bytes = action.transferBytes
        counts.withLock { progress in
            progress.done += 1
            progress.bytesDone = min(progress.bytesDone.addingSaturated(bytes), progress.bytesTotal)
        }
    }

    /// The actions of a round that ended early (a full disk) will not run: they no longer
    /// count, so done == total when the pass ends.
    func abandoned(_ actions: some Collection<SyncAction>) {
        let bytes = actions.lazy.map(\.transferBytes).saturatedSum
        counts.withLock { progress in
            progress.total -= actions.count
            progress.bytesTotal = max(progress.bytesTotal.addingSaturated(-bytes), progress.bytesDone)
        }
    }

    var snapshot: SyncProgress { counts.withLock { $0 } }
}

extension SyncAction {
    /// The file content this action moves between the disk and the mirror: an upload's
    /// or a download's size; nothing for folders, links, deletions and base updates.
    var transferBytes: Int64 {
        let state: EntryState? =
            switch self {
            case .publish(_, let state, _, _): state
            case .apply(let version, _): version.state
            case .adopt, .relocate: nil
            case .follow(let followed): if case .mirrorVersion(let version) = followed.edit { version.state } else { nil }
            case .land(let landing): landing.source == nil ? landing.version.state : nil
            }
        guard let state, state.kind == .file else { return 0 }
        return state.size
    }
}

extension SyncProgress {
    /// nil for a pass that planned nothing (most passes: nothing changed).
    var nonEmpty: SyncProgress? { total > 0 ? self : nil }
}
