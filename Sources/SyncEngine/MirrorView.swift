import CStatx
import Glibc
import RawPaths
import SyncPlanning
import Synchronization

/// This device's browsable tree of one container in the mirror,
/// `containers/<id>/current/<device>/` (docs/MIRROR-FORMAT.md, Views): the base's state of
/// every path. Only this device writes it and nothing reads it back, so it is not fsynced:
/// a crash leaves at worst a stale entry, which the next full pass repairs.
///
/// Each entry is replaced atomically (a temporary name in the same folder, renamed over),
/// and left alone when it is already right, so a pass costs a `stat` or two per path it
/// looks at and a link only per path that changed.
struct MirrorView {
    let folder: String
    let layout: MirrorLayout
    let linker: ViewLinker
    let method: ViewLinker.Method
    /// The view's folders this view made or found as folders, with no symlink on the way
    /// from `folder`, while setting entries: nothing is written or removed below a link in
    /// the view, which would reach where the link leads. A base can hold a link with paths
    /// below it: a folder replaced by a link on one device while a file in it was edited
    /// on another.
    private let plainFolders: PlainFolders
    /// The store's objects folder and the view's, open for new entries' links.
    private let linkFolders: LinkFolders

    /// `plainFolders`: those of one pass, when its updates come in several parts (`ViewStream`).
    init(folder: String, layout: MirrorLayout, linker: ViewLinker, method: ViewLinker.Method, plainFolders: PlainFolders = PlainFolders()) {
        self.folder = folder
        self.layout = layout
        self.linker = linker
        self.method = method
        self.plainFolders = plainFolders
        linkFolders = LinkFolders(objects: layout.objects, view: folder)
    }

    /// Brings the entries at `paths` in line with `base`: removals first, deepest first (a
    /// folder goes once its children have), then the rest, parents before children.
    /// The view's own folder, and those above it in the mirror, are made real folders first
    /// (`Sys.makePlainFolders`): through a link put in their place, a removal would delete
    /// files outside the mirror.
    func update(_ paths: some Collection<String>, base: [String: BaseRow], problems: inout ViewProblems) throws(SyncError) {
        try Sys.makePlainFolders(folder, below: layout.root)
        // The removals picked out before they are sorted: a first sync's updates have none.
        for path in paths.filter({ base[$0]?.entry.state == nil }).sorted(by: >) where isPlain(Sys.folderPart(of: path)) {
            try problems.attempt(path) { () throws(SyncError) in try Self.removeTree(.init(folder + "/" + path)) }
        }
        for path in paths.sorted() {
            guard let state = base[path]?.entry.state else { continue }
            try problems.attempt(path) { () throws(SyncError) in try set(path, to: state) }
        }
    }

    /// Makes the entry at `path` hold `state`, unless it already does.
    func set(_ path: String, to state: EntryState) throws(SyncError) {
        try makeParentFolders(of: path)
        let target = folder + "/" + path
        // A folder this pass made holds only what the pass has put there since: nothing at
        // `path` yet (each path is set once a pass). A first sync looks at no entry.
        let existing = plainFolders.isNew(Sys.folderPart(of: path)) ? nil : Sys.lstat(target)
        switch state.kind {
        case .folder: try makeFolder(path, existing: existing)
        case .symlink: try placeSymlink(state.linkTarget ?? "", at: target, existing: existing)
        case .file: try placeFile(state.sha256 ?? "", at: path, existing: existing)
        }
    }

    private func makeFolder(_ path: String, existing: stat?) throws(SyncError) {
        let target = folder + "/" + path
        if let existing {
            if existing.st_mode & S_IFMT == S_IFDIR { return }
            try Self.removeTree(.init(target))
        }
        // 0755 whatever the synced mode: this device must be able to write below it. Made
        // here, in a folder reached through no link (`set` made sure), it is one too.
        guard mkdir(target, 0o755) == 0 else {
            guard errno == EEXIST else { throw .system("mkdir", target) }
            return
        }
        plainFolders.insertNew(path)
    }

    private func placeSymlink(_ linkTarget: String, at target: String, existing: stat?) throws(SyncError) {
        if let existing, existing.st_mode & S_IFMT == S_IFLNK, Self.linkText(target) == Array(linkTarget.utf8) { return }
        let temporary = ViewLinker.temporaryName(in: Sys.parent(of: target))
        guard symlink(linkTarget, temporary) == 0 else { throw .system("symlink", temporary) }
        try install(temporary, at: target, existing: existing)
    }

    private func placeFile(_ sha256: String, at path: String, existing: stat?) throws(SyncError) {
        // A new entry's hard link appears whole under its name: no temporary name needed,
        // one call instead of four (a first sync makes one per file), and no need to look
        // for the object first, as the link would fail without it. Anything else (an
        // entry made meanwhile, a reflink) goes the general way. `set` made the folder.
        if existing == nil, method == .hardLink, let (objects, view) = linkFolders.descriptors(),
            (try? linker.hardLink(MirrorLayout.objectName(sha256), in: objects, at: path, in: view)) != nil
        {
            return
        }
        let object = layout.object(sha256)
        let target = folder + "/" + path
        guard let stored = Sys.lstat(object) else {
            throw DamagedObjects.missingError(object, what: "; the view shows no \(target)")
        }
        if let existing, holds(existing, stored) { return }
        let temporary = ViewLinker.temporaryName(in: Sys.parent(of: target))
        try linker.place(object, at: temporary, method: method)
        try install(temporary, at: target, existing: existing)
    }

    /// Whether the view file `existing` already holds the object `stored`: the same inode
    /// (a hard link), or the same size and modification time (a reflink, or a copy made
    /// where the object had too many links: both were given the object's time, and have
    /// an inode of their own).
    func holds(_ existing: stat, _ stored: stat) -> Bool {
        guard existing.st_mode & S_IFMT == S_IFREG else { return false }
        if existing.st_ino == stored.st_ino && existing.st_dev == stored.st_dev { return true }
        return existing.st_size == stored.st_size && existing.st_mtim.tv_sec == stored.st_mtim.tv_sec
            && existing.st_mtim.tv_nsec == stored.st_mtim.tv_nsec
    }

    /// Renames `temporary` over `target`. A folder there (a kind change) goes first, as
    /// rename cannot replace it with a file.
    private func install(_ temporary: String, at target: String, existing: stat?) throws(SyncError) {
        do throws(SyncError) {
            if let existing, existing.st_mode & S_IFMT == S_IFDIR { try Self.removeTree(.init(target)) }
            try Sys.rename(temporary, target)
        } catch {
            unlink(temporary)
            throw error
        }
        // rename(2) does nothing when both names are links to one inode, leaving the
        // temporary name behind.
        unlink(temporary)
    }

    /// Whether the view's folder `relative` is a folder reached through no link (false
    /// when absent: nothing below it to remove). Not cached: removals change the folders.
    private func isPlain(_ relative: String) -> Bool {
        ubq_is_folder_beneath(folder, relative) == 1
    }

    /// Makes the view's folders that hold `path`, through no link
    /// (`Sys.makeParentFolders(of:beneath:)`), unless this pass did already.
    private func makeParentFolders(of path: String) throws(SyncError) {
        let parent = Sys.folderPart(of: path)
        guard !plainFolders.contains(parent) else { return }
        // Not fsynced: the view is only a picture of the logs, which a pass repairs.
        _ = try Sys.makeParentFolders(of: path, beneath: folder)
        plainFolders.insert(parent)
    }

    /// The text of the symlink at `path`, as bytes; nil if it is not one.
    static func linkText(_ path: String) -> [UInt8]? {
        linkText(Array(path.utf8), in: AT_FDCWD)
    }
}

/// The problems of one view update, summed up: a mirror that refuses every link should
/// say so in a line or two, not once per file.
struct ViewProblems {
    static let shown = 3
    private(set) var lines: [String] = []
    private(set) var failures = 0

    /// Runs `body` for `path`, keeping its error. A full disk ends the update: every other
    /// entry would fail alike.
    mutating func attempt(_ path: String, _ body: () throws(SyncError) -> Void) throws(SyncError) {
        do {
            try body()
        } catch where error.isOutOfSpace {
            throw error
        } catch {
            failures += 1
            if lines.count < Self.shown { lines.append("mirror view of \(path): \(error)") }
        }
    }

    /// The lines to report, with a count of those left out.
    var summary: [String] {
        failures > lines.count ? lines + ["mirror view: \(failures - lines.count) more entries not updated"] : lines
    }
}

/// The store's objects folder and a view's root, opened once (O_PATH) for the links of
/// the view's new entries, made relative to them: a link by absolute paths walked both
/// paths from `/` each time. In a first sync of 100,000 files the view's calls spent about
/// 0.3 s in path walks (perf); with these links the sync took 6.34-6.65 s against
/// 6.54-7.03 s, faster in 4 of 5 interleaved pairs, and the daemon's CPU fell by 0.27-0.68 s
/// in those 4 (new ext4 each). Opened at the first link, once the view's root exists;
/// until both open, and wherever a link fails, entries are made the general way.
final class LinkFolders {
    private let paths: (objects: String, view: String)
    private var opened: (objects: Int32, view: Int32)?

    init(objects: String, view: String) {
        paths = (objects, view)
    }

    deinit {
        if let opened {
            close(opened.objects)
            close(opened.view)
        }
    }

    /// The two folders' descriptors; nil while either cannot be opened.
    func descriptors() -> (objects: Int32, view: Int32)? {
        if let opened { return opened }
        let objects = ubq_open_folder(paths.objects)
        let view = ubq_open_folder(paths.view)
        guard objects >= 0, view >= 0 else {
            if objects >= 0 { close(objects) }
            if view >= 0 { close(view) }
            return nil
        }
        opened = (objects, view)
        return opened
    }
}

/// The folders `MirrorView.set` checked or made, for one view (one pass): a view has far
/// fewer folders than files, and only this device writes it. Entries are set in path
/// order: a folder whose own entry the pass sets (a folder made a link, say) is set before
/// anything below it is checked, so what the cache holds stays true for the pass. A pass
/// that writes its view in parts, one after another (`ViewStream`), shares one.
final class PlainFolders: Sendable {
    private struct Folders {
        var all: Set<String> = [""]
        /// Those of `all` the pass made: empty then.
        var new: Set<String> = []
    }

    private let folders = Mutex(Folders())

    func contains(_ folder: String) -> Bool { folders.withLock { $0.all.contains(folder) } }
    func insert(_ folder: String) { folders.withLock { _ = $0.all.insert(folder) } }
    func isNew(_ folder: String) -> Bool { folders.withLock { $0.new.contains(folder) } }

    func insertNew(_ folder: String) {
        folders.withLock { folders in
            folders.all.insert(folder)
            folders.new.insert(folder)
        }
    }
}
