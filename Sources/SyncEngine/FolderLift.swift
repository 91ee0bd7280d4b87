import Glibc
import RawPaths
import SyncPlanning

/// Read-only folders a pass writes in. A folder whose mode denies its owner write or
/// search permission (made read-only to protect it, here or on the device whose mode
/// arrived) refuses the files a pass puts in it, removes from it or renames in it; a
/// folder arriving read-only would refuse its own files. As rsync does, the pass gives the
/// owner those permissions while it works, and puts each mode back when its actions are
/// done (`end`), before it scans again.
///
/// Each folder is recorded in the database before its mode changes: after a crash, the
/// next pass puts the mode back (`init`) instead of taking the lifted mode for the user's
/// change and publishing it. Root needs none of this (its permission checks pass anyway).
final class FolderLift {
    /// What the owner needs in a folder to change its entries.
    static let needed: mode_t = S_IWUSR | S_IXUSR

    private let database: SyncDatabase
    /// False for root: nothing to lift.
    let applies: Bool
    /// The folders lifted, by absolute path.
    private var lifted: [String: LiftedFolder] = [:]

    /// Puts back the modes a pass that crashed left lifted, where nobody changed them since.
    init(database: SyncDatabase, asRoot: Bool = geteuid() == 0) throws {
        self.database = database
        applies = !asRoot
        let leftovers = try database.liftedFolders()
        guard !leftovers.isEmpty else { return }
        for folder in leftovers { folder.putBack() }
        try database.forgetLifted()
    }

    /// Lifts those of `folders` (absolute paths) that exist, are folders and lack `needed`.
    func lift(_ folders: some Sequence<String>) throws {
        guard applies else { return }
        var lifting: [LiftedFolder] = []
        for folder in Set(folders) where lifted[folder] == nil {
            guard let info = Sys.lstat(folder), info.st_mode & S_IFMT == S_IFDIR, info.st_mode & Self.needed != Self.needed else { continue }
            let mode = info.st_mode & 0o7777
            lifting.append(LiftedFolder(path: RawPath(folder), restore: mode, given: mode | Self.needed))
        }
        try record(lifting)
        for folder in lifting { chmod(folder.path.readable, folder.given) }
    }

    /// Runs `body`, which writes in `folders`, with those of them that are read-only
    /// lifted, and puts their modes back after it: for writes outside a pass's actions (a
    /// diary's merge, `ubq resolve`, `ubq restore`, a leftover's removal).
    func writing<Result>(in folders: [String], _ body: () throws -> Result) throws -> Result {
        try lift(folders)
        defer { end() }
        return try body()
    }

    /// The mode to give now the folder at `absolute` whose synced mode is `mode`, being
    /// made or changed by the pass: `mode` itself, or `mode` lifted until `end`. A folder
    /// lifted already gets `mode` back at the end, not the mode it had; until the new mode
    /// is set, the mode it was lifted to still counts as the pass's own after a crash.
    func mode(forFolder absolute: String, synced mode: mode_t) throws -> mode_t {
        guard applies else { return mode }
        let given = mode & Self.needed == Self.needed ? mode : mode | Self.needed
        let earlier = lifted[absolute]
        guard given != mode || earlier != nil else { return mode }
        if earlier?.restore != mode || earlier?.given != given {
            try record([LiftedFolder(path: RawPath(absolute), restore: mode, given: given, earlier: earlier?.given)])
        }
        return given
    }

    /// Puts every lifted folder's mode back (deepest first, though chmod needs only search
    /// permission above), unless someone changed it meanwhile, and forgets them.
    func end() {
        guard !lifted.isEmpty else { return }
        for (_, folder) in lifted.sorted(by: { $0.key > $1.key }) { folder.putBack() }
        lifted = [:]
        try? database.forgetLifted()  // if not, the next pass finds them put back already
    }

    private func record(_ folders: [LiftedFolder]) throws {
        guard !folders.isEmpty else { return }
        try database.recordLifted(folders)
        for folder in folders { lifted[folder.path.readable] = folder }
    }
}

/// A folder whose mode a pass lifted: the mode it gets back, and the modes the pass gave
/// it meanwhile (`given`, and `earlier` while a new mode replaces the one it was lifted
/// to). Any other mode found there is someone else's, and stays.
struct LiftedFolder: Equatable {
    var path: RawPath
    var restore: mode_t
    var given: mode_t
    var earlier: mode_t? = nil

    /// Sets the folder's mode to `restore` if it still has a mode the pass gave it; gone is fine.
    func putBack() {
        var info = stat()
        guard path.withCString({ lstat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFDIR else { return }
        let now = info.st_mode & 0o7777
        guard now == given || now == earlier else { return }
        _ = path.withCString { chmod($0, restore) }
    }
}

extension SyncPass {
    /// The folders (absolute, as this disk names them) in which `actions` may add, remove
    /// or rename an entry: where each applied or followed item goes and where it came from.
    func foldersWritten(by actions: [SyncAction], local: LocalTree, in containerFolder: RawPath) -> [String] {
        var folders: Set<String> = []
        for action in actions {
            switch action {
            case .apply(let version, _): folders.formUnion([version.path, version.movedFrom].compactMap { $0.map(Sys.folderPart) })
            case .follow(let followed): folders.formUnion([followed.from, followed.move.path].map(Sys.folderPart))
            case .relocate(let relocation): folders.formUnion([relocation.from, relocation.to].map(Sys.folderPart))
            case .land(let landing): folders.formUnion(([landing.to] + (landing.source.map { [$0.path] } ?? [])).map(Sys.folderPart))
            case .publish, .adopt: continue
            }
        }
        return folders.map { containerFolder.appending(LocalNames.relative(of: $0, local: local, in: containerFolder)).readable }
    }
}
