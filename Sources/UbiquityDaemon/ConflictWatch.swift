import APIModel
import PresenterPlanning
import RawPaths
import SyncEngine
import UbiquitySettings

/// Looks, after each call into the sync engine (a pass, a resolution, a restore), at which
/// files have unresolved conflict versions, and has the presenters of those that gained,
/// resolved or lost some told (`ConflictVersionPlanner`): UIDocument's `inConflict` hangs
/// on it. A version that left is lost when the file's versions no longer list it. The
/// first look, once the engine has read every log (`hasReadEveryLog`: a mirror away at
/// start hides every conflict), only learns what is there: a conflict made before ubqd
/// started is not news.
///
/// Used on the sync worker's queue only, which serializes it.
final class ConflictWatch: @unchecked Sendable {
    private let hub: PresenterHub
    private let paths: CanonicalRoot
    private let notices = InOrderPublisher()
    private var known: ConflictSnapshot?
    /// What `known` was made from: while the versions' ids stay the same, nothing is looked up.
    private var knownIDs: [ContainerID: [String: [String]]]?

    init(hub: PresenterHub, paths: CanonicalRoot) {
        self.hub = hub
        self.paths = paths
    }

    func look(at engine: SyncEngine) {
        guard engine.hasReadEveryLog else { return }
        let ids = engine.conflictVersionIDs()
        guard ids != knownIDs else { return }
        knownIDs = ids
        let now = snapshot(engine)
        defer { known = now }
        guard let known, known != now else { return }
        let lost = lostVersions(from: known, to: now, engine)
        notices.enqueue { [hub] in await hub.tellConflictChanges(from: known, to: now, lost: lost) }
    }

    /// The ids of the versions that left the conflict and the history with it. A history
    /// that cannot be read loses nothing: the version is told as resolved.
    private func lostVersions(from old: ConflictSnapshot, to new: ConflictSnapshot, _ engine: SyncEngine) -> Set<String> {
        var lost: Set<String> = []
        for (item, departed) in Dictionary(grouping: ConflictVersionPlanner.departed(from: old, to: new), by: \.item) {
            guard let id = try? ContainerID(item.container), let kept = try? engine.versions(container: id, path: item.path) else { continue }
            let listed = Set(kept.map(\.id))
            lost.formUnion(departed.map(\.version.id).filter { !listed.contains($0) })
        }
        return lost
    }

    private func snapshot(_ engine: SyncEngine) -> ConflictSnapshot {
        var files: [[UInt8]: ConflictSnapshot.Entry] = [:]
        for (absolute, conflict) in engine.conflictsByLocalPath() {
            files[paths.canonical(absolute)] = ConflictSnapshot.Entry(
                item: VersionedItem(container: conflict.container, path: conflict.path), versions: conflict.others)
        }
        return ConflictSnapshot(files)
    }
}
