import RawPaths

/// A folder another device renamed, which this device can rename whole: one rename(2),
/// instead of a new folder, each item renamed into it one by one, and the old folder
/// removed. The folder's presenters then hear that it moved (they would hear it deleted),
/// it keeps its inode, and a folder of thousands of files moves in one step.
///
/// The mirror records a folder's rename item by item (docs/MIRROR-FORMAT.md): each file's
/// arrival names the path it left (`movedFrom`), folders and links are made anew at the new
/// path, and every old path is deleted. A plan holds such a rename whole when, for the
/// folder and for everything this device holds in it, it applies the deletion at the old
/// path and makes the same item (same state; a file's arrival moved from that very path) at
/// the same place below the new path, where this device holds nothing.
///
/// The plan keeps those actions. After the rename each finds its work done; when the rename
/// cannot be made (the folder changed, holds what sync does not know, an app keeps it
/// claimed), each does its own work, as it would without this.
public struct FolderMove: Hashable, Sendable {
    /// The folder's old path.
    public var from: String
    /// Its new path.
    public var to: String
    /// The paths (relative to the folder, in order) of everything this device holds in it.
    public var items: [String]

    public init(from: String, to: String, items: [String]) {
        self.from = from
        self.to = to
        self.items = items
    }

    /// Every path whose action the rename does the work of, old and new.
    public var paths: [String] {
        [from, to] + items.flatMap { [from + "/" + $0, to + "/" + $0] }
    }
}

/// Finds the folder moves a plan holds (`FolderMove`).
enum FolderMoves {
    /// The owner's write and search permission (S_IWUSR | S_IXUSR). A folder without them
    /// is lifted while a pass writes in it (`FolderLift` in SyncEngine), by path; one that
    /// moved would then keep the lifted mode. Such folders are renamed item by item.
    static let ownerMayChange: UInt32 = 0o300

    /// Whether a folder may be renamed to another folder: by `ownerMayChange`, which also
    /// lets rename(2) change its `..`.
    static func mayChange(_ folder: EntryState) -> Bool { folder.mode & ownerMayChange == ownerMayChange }

    /// The outermost folder moves among `actions`, in the order of their new paths.
    static func find(in actions: [SyncAction], trees: SyncTrees) -> [FolderMove] {
        var applied: [String: Applied] = [:]
        var candidates: Set<Pair> = []
        for case .apply(let version, let expected) in actions {
            applied[version.path] = Applied(version: version, expected: expected)
            if version.state?.kind == .file, let origin = version.movedFrom { candidates.formUnion(Pair.folders(of: version.path, leaving: origin)) }
        }
        let pairs = candidates.filter { $0.foldersMove(applied, local: trees.local) }.sorted { $0.to < $1.to }
        guard !pairs.isEmpty else { return [] }
        let contents = FolderContents(trees.local.keys)
        var moves: [FolderMove] = []
        for pair in pairs where !moves.contains(where: { pair.to.below($0.to) != nil }) {  // an inner one moves with its folder
            if let move = pair.move(applied, local: trees.local, contents: contents) { moves.append(move) }
        }
        return moves
    }

    /// An apply action's two halves.
    struct Applied {
        var version: VersionRecord
        var expected: EntryState?
    }

    /// A folder that may have moved from one path to another.
    struct Pair: Hashable {
        var from: String
        var to: String

        /// The folders whose rename would take `origin` to `path`: each pair of ancestors
        /// below which the two paths end alike (a file in `a/b` moved to `c/a/b` may be in
        /// `a/b` renamed to `c/a/b`, or in `a` renamed to `c/a`).
        static func folders(of path: String, leaving origin: String) -> [Pair] {
            var pairs: [Pair] = []
            var (to, from) = (Substring(path), Substring(origin))
            while let toSlash = to.lastSlash, let fromSlash = from.lastSlash, to[toSlash...].utf8.elementsEqual(from[fromSlash...].utf8) {
                (to, from) = (to[..<toSlash], from[..<fromSlash])
                pairs.append(Pair(from: String(from), to: String(to)))
            }
            return pairs
        }

        /// Whether the plan removes the folder at `from` and makes the same at `to`, where
        /// this device holds nothing: what is inside is looked at next (`move`).
        func foldersMove(_ applied: [String: Applied], local: [String: EntryState]) -> Bool {
            guard let folder = local[from], folder.kind == .folder, local[to] == nil, FolderMoves.mayChange(folder),
                let made = applied[to], made.expected == nil, made.version.state == folder,
                let gone = applied[from], gone.version.state == nil, gone.expected == folder
            else { return false }
            return true
        }

        /// The move, if the plan moves everything inside the folder too (`FolderMove`).
        func move(_ applied: [String: Applied], local: [String: EntryState], contents: FolderContents) -> FolderMove? {
            var items: [String] = []
            for path in contents.paths(below: from) {
                guard let item = path.below(from), let state = local[path], moves(state, from: path, to: to + "/" + item, applied) else { return nil }
                items.append(String(item))
            }
            return FolderMove(from: from, to: to, items: items.sorted())
        }

        /// Whether the plan deletes `state` at `path` and makes it at `destination`.
        private func moves(_ state: EntryState, from path: String, to destination: String, _ applied: [String: Applied]) -> Bool {
            guard let gone = applied[path], gone.version.state == nil, gone.expected == state,
                let made = applied[destination], made.expected == nil, made.version.state == state
            else { return false }
            switch state.kind {
            case .file: return made.version.movedFrom == path
            case .folder: return FolderMoves.mayChange(state)
            case .symlink: return true
            }
        }
    }

    /// The local tree's paths by folder, to walk what a folder holds.
    struct FolderContents {
        private var children: [Substring: [String]] = [:]

        init(_ paths: some Sequence<String>) {
            for path in paths {
                if let folder = path.folderBeforeLastSlash { children[folder, default: []].append(path) }
            }
        }

        /// The paths below `folder`, each folder before what it holds.
        func paths(below folder: String) -> [String] {
            var found: [String] = []
            var pending = [folder]
            while let next = pending.popLast() {
                for child in children[Substring(next)] ?? [] {
                    found.append(child)
                    pending.append(child)
                }
            }
            return found
        }
    }
}
