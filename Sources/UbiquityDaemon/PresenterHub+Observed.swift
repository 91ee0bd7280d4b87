import APIModel
import Foundation
import PresenterPlanning

/// Changes the watcher saw, made by programs that coordinate or not.
extension PresenterHub {
    /// Tells presenters of the changes in one applied batch. A change to an item exactly as
    /// a coordinated write left it was told already at the end of that access, and one to an
    /// item a coordinated write is still busy with will be told at its end: skipped. A
    /// presented file that vanished while a file with its inode appeared (in this batch or
    /// within `moveWindow`, also below a folder that appeared whole: `findMoves`) was moved;
    /// one whose inode does not reappear is told as deleted once the window has passed.
    func observe(_ changes: [ObservedChange]) {
        guard sessions.values.contains(where: { !$0.presenters.isEmpty }) else { return }
        let fresh = findMoves(pairMoves(changes.filter { !isEcho($0) && !isUnderWay($0) })) + expiredVanishings(by: ContinuousClock.now)
        tell(fresh)
    }

    /// A change to an item a coordinated write is still busy with: that write's end tells it.
    private func isUnderWay(_ change: ObservedChange) -> Bool {
        let written = accesses.values.flatMap { access in access.items.filter { $0.access == .writing }.map(\.path) }
        guard !written.isEmpty else { return false }
        let paths: [[UInt8]]
        switch change {
        case .appeared(let path), .changed(let path), .removed(let path), .rescanned(let path): paths = [path]
        case .moved(let from, let to): paths = [from, to]
        }
        return paths.contains { path in
            written.contains { $0 == path || PathRelation.isStrictlyBelow(path, $0) }
        }
    }

    /// Tells the presenters of files whose unresolved conflict versions changed between two
    /// of sync's looks (`ConflictWatch`).
    func tellConflictChanges(from old: ConflictSnapshot, to new: ConflictSnapshot, lost: Set<String>) {
        send(ConflictVersionPlanner.notices(from: old, to: new, lost: lost, presenters: presences), request: nil, asking: false)
    }

    /// Tells the vanished items whose window has passed (called every sweep).
    func flushVanished() {
        tell(expiredVanishings(by: ContinuousClock.now))
    }

    private func tell(_ changes: [ObservedChange]) {
        guard !changes.isEmpty else { return }
        let touched = Set(changes.compactMap { change -> [UInt8]? in
            switch change {
            case .changed(let path), .appeared(let path), .removed(let path): path  // removed: no identity any more
            default: nil
            }
        })
        // A batch is told as the item is now, which may already hold a later write: its
        // own batch, which follows, is then an echo of what was told. Looked at before
        // the notices go, so that a write after the look is news.
        let presented = presentedIdentities()
        remember(touched.filter { presented[$0] != nil })
        send(ObservedChangePlanner.notices(changes, presenters: presences), request: nil, asking: false)
        refreshIdentities(of: touched)
    }

    private func isEcho(_ change: ObservedChange) -> Bool {
        switch change {
        case .changed(let path), .appeared(let path):
            guard let known = announced[path], let now = FileStamp(path) else { return false }
            return known.stamp == now
        default: return false
        }
    }

    /// Holds back `removed(p)` of a presented p (it may be half of a rename) and turns
    /// `appeared(q)` into `moved(p, q)` when q has the inode p had.
    func pairMoves(_ changes: [ObservedChange]) -> [ObservedChange] {
        let identities = presentedIdentities()
        let now = ContinuousClock.now
        var held: Set<[UInt8]> = []
        for case .removed(let path) in changes {
            guard let identity = identities[path] else { continue }
            vanished[path] = (identity, now)
            held.insert(path)
        }
        guard !vanished.isEmpty else { return changes }
        return changes.compactMap { change in
            switch change {
            case .removed(let path) where held.contains(path): return nil
            case .appeared(let path):
                guard let identity = FileStamp(path)?.identity,
                    let origin = vanished.first(where: { $0.value.identity == identity })?.key
                else { return change }
                vanished[origin] = nil
                return .moved(from: origin, to: path)
            default: return change
            }
        }
    }

    /// Adds the moves of presented files that `pairMoves` could not pair, found at or below
    /// what arrived in this batch (`ArrivalSearch`). A presented file that left its path
    /// with no event saying so (moved before the watcher indexed it) counts as vanished from
    /// now: found later, it moved; not found within `moveWindow`, it is told as deleted.
    func findMoves(_ changes: [ObservedChange]) -> [ObservedChange] {
        let arrivals = changes.compactMap { change -> [UInt8]? in
            switch change {
            case .appeared(let path), .rescanned(let path): path
            default: nil
            }
        }
        guard !arrivals.isEmpty else { return changes }
        let now = ContinuousClock.now
        for (path, identity) in presentedIdentities() where vanished[path] == nil && !FileStamp.exists(path) {
            vanished[path] = (identity, now)
        }
        guard !vanished.isEmpty else { return changes }
        var search = ArrivalSearch(sought: Dictionary(vanished.map { ($0.value.identity, $0.key) }) { first, _ in first })
        let moves = arrivals.flatMap { search.moves(into: $0) }
        for move in moves { vanished[move.from] = nil }
        return changes + moves.map { ObservedChange.moved(from: $0.from, to: $0.to) }
    }

    private func expiredVanishings(by now: ContinuousClock.Instant) -> [ObservedChange] {
        let expired = vanished.filter { now - $0.value.at >= moveWindow }.keys.sorted { $0.lexicographicallyPrecedes($1) }
        for path in expired { vanished[path] = nil }
        return expired.map { .removed($0) }
    }

    private func presentedIdentities() -> [[UInt8]: FileStamp.Identity] {
        var identities: [[UInt8]: FileStamp.Identity] = [:]
        for session in sessions.values {
            for registration in session.presenters.values { identities[registration.path] = registration.identity }
        }
        return identities
    }

    /// Presented items that changed may have a new inode now (a save by rename).
    func refreshIdentities(of paths: Set<[UInt8]>) {
        for (sessionID, session) in sessions {
            for (id, registration) in session.presenters where paths.contains(registration.path) {
                sessions[sessionID]?.presenters[id]?.identity = FileStamp(registration.path)?.identity
            }
        }
    }
}
