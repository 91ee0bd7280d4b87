import RawPaths

/// A new item that follows a folder renamed concurrently by another device, as it would in
/// iCloud Drive, where an item belongs to its folder, not to a path: device A renames
/// folder `x` to `y` while device B, offline, adds `x/new.txt`. Without following, B
/// publishes `x/new.txt` and every device ends with a folder `x` again, holding only what B
/// added, beside `y`. Following, B renames its `x/new.txt` to `y/new.txt` first, and the
/// next round publishes it there, as any new file.
///
/// Only items this device made and never synced (nothing agreed on at their path: no
/// base, or a deletion; nothing live in the mirror there), or published unseen by the
/// other device (below), follow, each where nothing is or arrives, nor was when this
/// device last synced it (a deletion was), and no other item goes. A new folder moves
/// whole, with what it holds, if it holds on disk just what the scan saw (a `cp -r` still
/// under way keeps it where it is) and its owner may change it; otherwise it stays, with
/// all it holds. An edit of a file the rename moved follows on its own (`FollowedMove`).
///
/// An item this device made and published while the other device renamed the folder,
/// neither having read the other's change, follows the same way (`Strays.published`), and
/// is published at its new place as moved from where it was.
///
/// A file this device moved into the folder from outside it (B moved `other.txt` to
/// `x/other.txt`) follows too, and its rename is published from where it was: its old
/// path's deletion waits a round (`departures`), and then pairs with the file at its new
/// place (`SyncPlan.pairingRenames`). Published at once, the rename made the folder `x`
/// again, holding only that file, on every device.
public struct Relocation: Hashable, Sendable {
    /// Where the item is here.
    public var from: String
    /// Where the rename of its folder takes it.
    public var to: String
    /// What the disk held at `from` when the plan was made (the executor re-checks it).
    public var state: EntryState
    /// For a folder: the paths (relative to it, each folder before what it holds) of
    /// everything the scan found in it, which goes along.
    public var items: [String]
    /// Where the files this device renamed into the folder, the item or what it holds,
    /// came from, and the folders they left that this device deleted: the deletions there
    /// are published by the next round, with the files at their new places, as their
    /// renames.
    public var departures: [String]

    public init(from: String, to: String, state: EntryState, items: [String] = [], departures: [String] = []) {
        self.from = from
        self.to = to
        self.state = state
        self.items = items
        self.departures = departures
    }
}

/// Finds the relocations a plan holds (`Relocation`).
enum Relocations {
    /// `actions` with the publish of each new item that follows a renamed folder replaced by
    /// its relocation, and the publishes of what it holds dropped (they go with it; the
    /// next round publishes them at their new paths).
    ///
    /// Runs after `SyncPlan.pairingRenames`, which tells the files this device moved into
    /// the folder (published with `movedFrom`): their departures wait a round.
    static func relocating(_ actions: [SyncAction], trees: SyncTrees) -> [SyncAction] {
        let renames = folderRenames(in: actions, local: trees.local)
        guard !renames.isEmpty else { return actions }
        let made = Set(actions.compactMap { if case .apply(let version, _) = $0, version.state?.kind == .folder { version.path } else { nil } })
        var relocated: [String: Relocation] = [:]
        var staying: Set<String> = []  // new items that stay where they are, with all they hold
        var claimed: Set<String> = []  // destinations taken (two folders may be renamed into one)
        // Path order puts each folder before what it holds ("a" < "a/b").
        let strays = Strays.published(below: renames, actions: actions, trees: trees)
        for (path, state, origin) in (newItems(in: actions, trees: trees) + strays).sorted(by: { $0.0 < $1.0 }) {
            if let holder = path.enclosingFolders.first(where: { relocated[$0] != nil || staying.contains($0) }) {
                if let below = path.below(holder), relocated[holder] != nil {
                    relocated[holder]?.items.append(String(below))
                    if let origin { relocated[holder]?.departures.append(origin) }
                } else {
                    staying.insert(path)
                }
                continue
            }
            guard let destination = destination(of: path, renames: renames), !claimed.contains(destination),
                isFree(destination, trees: trees, made: made), state.kind != .folder || FolderMoves.mayChange(state)
            else {
                staying.insert(path)
                continue
            }
            claimed.insert(destination)
            relocated[path] = Relocation(from: path, to: destination, state: state, departures: origin.map { [$0] } ?? [])
        }
        guard !relocated.isEmpty else { return actions }
        holdingFoldersLeft(&relocated, actions: actions, trees: trees)
        let carried = Set(relocated.values.flatMap { relocation in relocation.items.map { relocation.from + "/" + $0 } })
        let departures = Set(relocated.values.flatMap(\.departures))
        // A published stray has no action of its own to replace.
        let strayMoves = strays.compactMap { relocated[$0.0].map(SyncAction.relocate) }
        return actions.compactMap { action in
            guard case .publish(let path, let state, _, _) = action else { return action }
            if carried.contains(path) || (state == nil && departures.contains(path)) { return nil }
            return relocated[path].map(SyncAction.relocate) ?? action
        } + strayMoves
    }

    /// Adds to each relocation's departures the folders they lie in that this device
    /// deleted (it moved a folder into the renamed one: `mv notes p/`). Published a round
    /// before its files' departures, such a folder's deletion met files still live in it
    /// on another device, which then kept the folder (and published it again): every
    /// device ended with it, empty. A folder this device renamed elsewhere than into the
    /// renamed one (`mv notes notes2`) is not held: its deletion is that rename's departure,
    /// which `Landings` must see to put another device's new items in it where they belong.
    static func holdingFoldersLeft(_ relocated: inout [String: Relocation], actions: [SyncAction], trees: SyncTrees) {
        guard relocated.values.contains(where: { !$0.departures.isEmpty }) else { return }
        var deletedFolders = Set(actions.compactMap { action -> String? in
            guard case .publish(let path, nil, _, _) = action, trees.base[path]?.state?.kind == .folder else { return nil }
            return path
        })
        guard !deletedFolders.isEmpty else { return }
        let renamedHere = Landings.folderRenamesHere(in: actions, trees: trees)
        let moving = Set(relocated.keys)
        let follows = { (path: String) in moving.contains(path) || path.enclosingFolders.contains(where: moving.contains) }
        deletedFolders = deletedFolders.filter { folder in
            (renamedHere[folder] ?? destination(of: folder, renames: renamedHere)).map(follows) ?? true
        }
        for (path, relocation) in relocated where !relocation.departures.isEmpty {
            let folders = Set(relocation.departures.flatMap { $0.enclosingFolders.filter(deletedFolders.contains) })
            relocated[path]?.departures += folders.sorted()
        }
    }

    /// The items this device made and never synced, which the mirror has nothing live at,
    /// with their states. (Made again where one was deleted, an item's
    /// publish names that deletion as parent.) A file renamed here comes with the path it
    /// was renamed from.
    static func newItems(in actions: [SyncAction], trees: SyncTrees) -> [(String, EntryState, String?)] {
        actions.compactMap { action -> (String, EntryState, String?)? in
            guard case .publish(let path, let state?, _, let origin) = action, trees.base[path]?.state == nil,
                trees.histories[path]?.winner?.state == nil
            else { return nil }
            return (path, state, origin)
        }
    }

    /// The folders another device renamed that this plan takes away here: the plan applies
    /// the folder's deletion at the old path (where this device holds it) and makes a folder
    /// at the new one (where it holds nothing), both by the same device, and at least one
    /// file arrives below the new path moved from the same place below the old
    /// (`FolderMoves.Pair`), or an edit or a rename made here follows such an arrival. A
    /// folder renamed to two places at once is left alone.
    static func folderRenames(in actions: [SyncAction], local: [String: EntryState]) -> [String: String] {
        var pairs: Set<FolderMoves.Pair> = []
        for action in actions {
            let arrival: VersionRecord
            switch action {
            case .apply(let version, _): arrival = version
            case .follow(let followed): arrival = followed.move
            default: continue
            }
            guard arrival.state?.kind == .file, let origin = arrival.movedFrom else { continue }
            pairs.formUnion(FolderMoves.Pair.folders(of: arrival.path, leaving: origin))
        }
        guard !pairs.isEmpty else { return [:] }  // most plans: a first sync's 100,000 downloads are no renames
        let ends = Set(pairs.flatMap { [$0.from, $0.to] })
        var applied: [String: (version: VersionRecord, expected: EntryState?)] = [:]
        for case .apply(let version, let expected) in actions where ends.contains(version.path) { applied[version.path] = (version, expected) }
        var targets: [String: Set<String>] = [:]
        for pair in pairs {
            guard let gone = applied[pair.from], gone.version.state == nil, gone.expected?.kind == .folder, local[pair.from]?.kind == .folder,
                let made = applied[pair.to], made.version.state?.kind == .folder, made.expected == nil, local[pair.to] == nil,
                made.version.id.device == gone.version.id.device
            else { continue }
            targets[pair.from, default: []].insert(pair.to)
        }
        return targets.compactMapValues { $0.count == 1 ? $0.first : nil }
    }

    /// Where `path` goes: below the new path of the innermost renamed folder it is in.
    static func destination(of path: String, renames: [String: String]) -> String? {
        for folder in path.enclosingFolders {
            if let target = renames[folder], let rest = path.below(folder) { return target + "/" + rest }
        }
        return nil
    }

    /// Whether an item may go to `destination`: nothing is there, nor was when this device
    /// last synced it, nor arrives, and its folder is there or made by the plan.
    static func isFree(_ destination: String, trees: SyncTrees, made: Set<String>) -> Bool {
        guard trees.local[destination] == nil, trees.base[destination]?.state == nil, trees.histories[destination]?.winner?.state == nil,
            let folder = destination.folderBeforeLastSlash.map(String.init)
        else { return false }
        return made.contains(folder) || trees.local[folder]?.kind == .folder
    }
}
