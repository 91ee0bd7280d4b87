import Coordination
import Foundation
import Glibc
import RawPaths
import SyncPlanning

extension Executor {
    /// Puts an edit where another device's rename took its file (`FollowedMove`), if the
    /// disk still holds what the plan saw at both paths. The base then says the new path
    /// holds the renamed version (with no signature, so the next scan hashes the file and
    /// finds the edit: the next round publishes it as the rename's child) and the old path
    /// its deletion. A deletion made here writes nothing: the next scan finds the file
    /// missing at the new path, and the next round publishes that.
    /// `relative`: where the move's path is below the container folder (`LocalNames`).
    func follow(
        _ followed: FollowedMove, source: LocalEntry?, to relative: RawPath, destination: LocalEntry?, batch: ChangeBatch
    ) throws -> Outcome {
        let target = containerFolder.appending(relative).readable
        let outcome: Outcome
        switch followed.edit {
        case .localFile(let state):
            guard let source, source.state == state else { return .skipped("\(followed.from) is not the file the plan moves") }
            outcome = try rename(source, to: target, replacing: destination)
        case .mirrorVersion(let version):
            guard source == nil, let state = version.state else { return .skipped("\(followed.from) appeared since the scan") }
            outcome = try fetch(state, to: target, replacing: destination)
        case .localDeletion, .localRename:
            // Nothing to write: the base alone takes the arrival. Whatever appears at either
            // path meanwhile is new to the next scan, and published.
            outcome = .done
        }
        guard outcome == .done else { return outcome }
        try faults?.checkpoint("follow: disk written, base not committed")
        batch.commit(BaseCommit("follow", path: followed.move.path, version: followed.move.id, state: followed.move.state, signature: nil))
        switch followed.departure {
        case .adoptDeletion(let deletion):
            batch.commit(BaseCommit("follow-departed", path: followed.from, version: deletion, state: nil, signature: nil))
        case .publishDeletion(let heads):
            // Nil only if something new appeared at the old path meanwhile: the next round publishes it.
            _ = try publish(followed.from, state: nil, parents: heads, movedFrom: nil, local: source, batch: batch)
        }
        return .done
    }

    /// Moves a new item where another device's rename took its folder (`Relocation`), if
    /// the disk still holds it as the plan saw it and nothing is at `relative` (below the
    /// container folder). Nothing is in the base for either path: the next scan finds the
    /// item at its new path, new, and publishes it.
    /// A folder moves only while it holds just what the scan found in it (`holdsExactly`):
    /// a copy into it still under way, or a file sync ignores, keeps it where it is.
    func relocate(_ relocation: Relocation, entries: [String: LocalEntry], to relative: RawPath) throws -> Outcome {
        guard let source = entries[relocation.from], source.state == relocation.state else {
            return .skipped("\(relocation.from) is not the item the plan moves")
        }
        let items = relocation.items.compactMap { entries[relocation.from + "/" + $0] }
        guard items.count == relocation.items.count else { return .skipped("\(relocation.from) is not the folder the plan moves") }
        let holdsWhatWasSeen = { source.state.kind != .folder || self.holdsExactly(source, items) }
        return try rename(source, to: containerFolder.appending(relative).readable, replacing: nil, onlyIf: holdsWhatWasSeen)
    }

    /// Puts another device's new item (or its edit of a file this device deleted since its
    /// rename: `Landings.keptEdits`) where this device renamed its folder (`Landing`), if
    /// nothing is at `relative` (below the container folder): fetched from the store, or
    /// renamed from the local file `source` (which must still be as the plan saw it). One
    /// that lands in place (moved out of the folder) is then recorded as applied. Any other
    /// goes out as this device's folder rename publishes each item it held: the item at its
    /// new path (a file naming the old path as where it came from), and its departure from
    /// the old one. The base then has the new path at the published version, and the old
    /// one deleted. The arrival goes first: if it cannot be published (its content is
    /// read again, to check it, where the store lacks it), nothing is; the next pass finds
    /// the item new here, publishes it, and fetches the old path again (both names stay,
    /// nothing is lost). Where something appeared at the old path meanwhile, there is no
    /// departure, and the arrival names no origin: the next round publishes what appeared.
    func land(_ landing: Landing, source: LocalEntry?, to relative: RawPath, batch: ChangeBatch) throws -> Outcome {
        guard let state = landing.version.state else { return try landDeletion(landing, source: source, at: relative, batch: batch) }
        let target = containerFolder.appending(relative).readable
        let outcome: Outcome
        if let planned = landing.source {
            guard let source, source.state == planned.state else { return .skipped("\(planned.path) is not the file the plan moves") }
            if landing.isLandedAlready {
                outcome = Self.unchanged(target, since: source) ? .done : .skipped("\(target) changed since it was read")
            } else {
                outcome = try rename(source, to: target, replacing: nil)
            }
        } else {
            outcome = try fetch(state, to: target, replacing: nil)
        }
        guard outcome == .done else { return outcome }
        try faults?.checkpoint("land: disk written, nothing published")
        if landing.isInPlace {
            // The other device published the move: the base takes it, as for a download (no
            // signature: the next scan reads the file and keeps one).
            batch.commit(BaseCommit("download", path: landing.version.path, version: landing.version.id, state: state, signature: nil))
            return .done
        }
        let departs = !isHere(RawPath(landing.version.path))
        _ = try publish(
            landing.to, state: source?.state ?? state, parents: landing.replacing, movedFrom: departs ? landing.movedFrom : nil,
            local: nil, batch: batch, relative: relative)
        if departs { _ = try publish(landing.version.path, state: nil, parents: landing.leaving, movedFrom: nil, local: nil, batch: batch) }
        return .done
    }

    /// Removes this device's copy of an item another device deleted, from where this
    /// device's folder rename took it (`Landing.isDeletion`): if it is still as the plan saw
    /// it, and, for a folder, empty (what it held went or landed elsewhere first). The base
    /// then takes the deletion at the item's old path, as for a deletion applied there.
    func landDeletion(_ landing: Landing, source: LocalEntry?, at relative: RawPath, batch: ChangeBatch) throws -> Outcome {
        guard let planned = landing.source, let source, source.state == planned.state else {
            return .skipped("\(landing.to) is not the item the plan removes")
        }
        let target = containerFolder.appending(relative).readable
        let outcome = try coordinator.write(target, options: .forDeleting) { () throws -> Outcome in
            guard Self.unchanged(target, since: source) else { return .skipped("\(target) changed since it was read") }
            return try remove(target, expected: source)
        }
        guard outcome == .done else { return outcome }  // `.kept`: a folder holding what is not synced (an editor's swap file)
        batch.commit(BaseCommit("adopt", path: landing.version.path, version: landing.version.id, state: nil, signature: nil))
        return .done
    }

    /// Renames the local item `source` to `target` under a coordinated move, if neither
    /// changed since the scan (`target` was absent, or held `expected`).
    /// `onlyIf` is checked under the claims too.
    private func rename(
        _ source: LocalEntry, to target: String, replacing expected: LocalEntry?, onlyIf condition: () -> Bool = { true }
    ) throws -> Outcome {
        let origin = containerFolder.appending(source.rawPath).readable
        return try coordinatedMove(from: origin, to: target, moved: { $0 == .done }) { () throws -> Outcome in
            guard Self.unchanged(origin, since: source), condition() else { return .skipped("\(origin) changed since it was read") }
            guard Self.unchanged(target, since: expected) else { return .skipped("\(target) changed since it was read") }
            let madeIn = try makeParentFolders(of: target)
            let placed = try place(origin, at: target, replacing: expected, mode: nil)
            guard placed.outcome == .done else { return placed.outcome }
            try ConcurrentSync.fsyncFolders(Array(Set(madeIn + [Sys.parent(of: target), Sys.parent(of: origin)])).sorted(), faults: faults)
            return .done
        }
    }

    /// Writes `state`'s content from the store at `target`, if it is unchanged since the scan.
    private func fetch(_ state: EntryState, to target: String, replacing expected: LocalEntry?) throws -> Outcome {
        try coordinator.write(target) { () throws -> Outcome in
            guard Self.unchanged(target, since: expected) else { return .skipped("\(target) changed since it was read") }
            let madeIn = try makeParentFolders(of: target)
            let installed = try install(state, at: target, replacing: expected, renamingFrom: nil)
            if installed.outcome == .done { try ConcurrentSync.fsyncFolders(madeIn + installed.unsyncedFolders, faults: faults) }
            return installed.outcome
        }
    }

    /// Runs `body` holding write claims on both ends of a move (apps presenting either save
    /// or let go first). When `moved` says the result is the move done, records it: an
    /// access waiting for `origin` gets `target`, and presenters of `origin` are told the
    /// item moved (`presentedItemDidMove(to:)`) rather than that it was deleted.
    func coordinatedMove<T>(from origin: String, to target: String, moved: (T) -> Bool, _ body: () throws -> T) throws -> T {
        guard let coordinator else { return try body() }
        let (from, to) = (claimURL(origin), claimURL(target))
        return try coordinator.coordinate(
            writingItemAt: from, options: .forMoving, writingItemAt: to, options: .forReplacing, timeout: coordinator.claimTimeout
        ) { _, _ in
            let result = try body()
            if moved(result) { try coordinator.item(at: from, didMoveTo: to) }
            return result
        }
    }
}
