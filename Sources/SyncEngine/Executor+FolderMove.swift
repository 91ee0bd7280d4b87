import Glibc
import RawPaths
import SyncPlanning

extension Executor {
    /// Renames a folder another device renamed (`FolderMove`) whole, under a coordinated
    /// move, if the disk holds at its old path exactly what the scan saw (nothing changed,
    /// nothing added, ignored files included) and nothing at its new path (`relative`,
    /// below the container folder). Returns the outcome of each of the move's actions, by
    /// path: empty when the folder was not renamed, and each action then does its own work.
    ///
    /// The items keep their inodes and times, so each keeps the signature the scan gave it.
    func moveFolder(_ move: FolderMove, entries: [String: LocalEntry], to relative: RawPath) throws -> [String: Result<Installed, any Error>] {
        let items = move.items.compactMap { entries[move.from + "/" + $0] }
        guard let folder = entries[move.from], items.count == move.items.count else { return [:] }
        let origin = containerFolder.appending(folder.rawPath).readable
        let target = containerFolder.appending(relative).readable
        let renamed: Bool
        do {
            renamed = try coordinatedMove(from: origin, to: target, moved: { $0 }) { () throws -> Bool in
                guard Sys.lstat(target) == nil, holdsExactly(folder, items) else { return false }
                let madeIn = try makeParentFolders(of: target)
                guard try Sys.renameNoReplace(origin, target) else { return false }
                try faults?.checkpoint(Self.folderMovedCheckpoint)
                try ConcurrentSync.fsyncFolders(Array(Set(madeIn + [Sys.parent(of: target), Sys.parent(of: origin)])).sorted(), faults: faults)
                return true
            }
        } catch let crash as FaultInjection.SimulatedCrash {
            throw crash
        } catch {
            // Before the rename (the claim, the folders above the target, a filesystem that
            // cannot rename a folder without replacing): nothing moved, the actions do their
            // own work. After it (an fsync): `renamed` is unknown, so each action reports
            // the error and finds, next pass, what the disk holds.
            return Sys.lstat(origin) == nil ? Self.outcomes(of: move, .failure(error)) : [:]
        }
        guard renamed else { return [:] }
        var outcomes = Self.outcomes(of: move, .success(Installed(outcome: .done)))
        for (item, entry) in zip(move.items, items) where entry.state.kind != .folder {
            outcomes[move.to + "/" + item] = .success(Installed(outcome: .done, signature: entry.lastingSignature))
        }
        return outcomes
    }

    /// The checkpoint between renaming a folder whole and syncing the folders it left and entered.
    static let folderMovedCheckpoint = "move folder: renamed, folders not synced"

    private static func outcomes(of move: FolderMove, _ outcome: Result<Installed, any Error>) -> [String: Result<Installed, any Error>] {
        Dictionary(move.paths.map { ($0, outcome) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether the folder `folder` holds on disk exactly `items` (each unchanged since the
    /// scan), and nothing else.
    func holdsExactly(_ folder: LocalEntry, _ items: [LocalEntry]) -> Bool {
        guard Self.unchanged(containerFolder.appending(folder.rawPath).readable, since: folder) else { return false }
        let expected = Dictionary(items.map { ($0.rawPath, $0) }, uniquingKeysWith: { first, _ in first })
        var found = 0
        var pending = [folder.rawPath]
        while let next = pending.popLast() {
            for name in MirrorView.names(in: containerFolder.appending(next)) {
                let path = next.appending(name)
                guard let entry = expected[path], Self.unchanged(containerFolder.appending(path).readable, since: entry) else { return false }
                found += 1
                if entry.state.kind == .folder { pending.append(path) }
            }
        }
        return found == items.count
    }
}
