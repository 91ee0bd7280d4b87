import SyncPlanning

/// An item whose current version is a deletion (`SyncEngine.deletedItems`).
struct DeletedItem {
    var history: PathHistory
    var deletion: VersionRecord
    /// Its last version the retention keeps with something in it (content, a link's
    /// target, a folder); nil when none is kept any more.
    var last: VersionRecord?
    /// Where its content went on, if the deletion was a rename's departure (the arrival
    /// names it in `movedFrom`, published by the same device at the same moment): then it
    /// was no deletion.
    var movedTo: String?

    var path: String { history.path }
    var isFolder: Bool { last?.state?.kind == .folder }
}

/// The items deleted at or below one folder, and which went together: what `ubq deleted`
/// lists, and what restoring a deleted folder brings back.
///
/// An item went with a deleted folder above it when the device that deleted the folder
/// deleted it at most `window` milliseconds before (`wentWith`): an `rm -rf` publishes
/// its items' deletions a moment before the folder's. A folder whose files went on under
/// another folder's name at that moment (`F/sub/x` now `G/sub/x`), with no file deleted
/// outright, was renamed, not deleted (a folder's or a link's arrival names no origin; a
/// file's does); so is a folder that went with a renamed one.
///
/// Every question walks up from an item through its deleted ancestors only (above a
/// folder that is not deleted, none is): a tree of 100,000 deleted items costs their
/// depth, not their number squared.
struct DeletedTree {
    let items: [String: DeletedItem]
    let window: Int64
    /// A renamed folder → one of its files, and where that file went.
    private var renames: [String: (from: String, to: String)] = [:]
    /// What `ubq deleted` lists: files and links deleted outright, and deleted folders
    /// that were not renamed and did not go with a listed folder above them.
    private(set) var listed: [DeletedItem] = []
    private var listedFolders: Set<String> = []

    init(_ deleted: [DeletedItem], window: Int64) {
        items = Dictionary(deleted.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        self.window = window
        renames = findRenames()
        listed = findListed()
        listedFolders = Set(listed.filter(\.isFolder).map(\.path))
    }

    /// Whether `item` went with `folder` (deleted): by the device that deleted the folder,
    /// at most `window` milliseconds before.
    func wentWith(_ item: DeletedItem, _ folder: DeletedItem) -> Bool {
        let (since, overflow) = folder.deletion.time.subtractingReportingOverflow(window)  // a log line's time is its writer's word
        return item.deletion.id.device == folder.deletion.id.device && item.deletion.time >= (overflow ? .min : since)
    }

    /// The deleted folders above `path`, nearest first.
    func deletedAncestors(of path: String) -> [DeletedItem] {
        var found: [DeletedItem] = []
        var current = path
        while current.contains("/") {
            current = Sys.parent(of: current)
            guard let folder = items[current], folder.isFolder else { break }
            found.append(folder)
        }
        return found
    }

    /// Where one of the files of `folder` went, if it was renamed (or went with a renamed
    /// folder above it).
    func rename(of folder: DeletedItem) -> (from: String, to: String)? {
        if let own = renames[folder.path] { return own }
        return deletedAncestors(of: folder.path).lazy.compactMap { wentWith(folder, $0) ? renames[$0.path] : nil }.first
    }

    /// `listed`, found shallowest first: whether a folder is listed depends on those above.
    private func findListed() -> [DeletedItem] {
        var shownFolders: Set<String> = []
        var shown: [DeletedItem] = []
        for item in items.values.sorted(by: { $0.path.utf8.count < $1.path.utf8.count }) where item.last != nil && item.movedTo == nil {
            if item.isFolder {
                guard rename(of: item) == nil else { continue }
                if deletedAncestors(of: item.path).contains(where: { shownFolders.contains($0.path) && wentWith(item, $0) }) { continue }
                shownFolders.insert(item.path)
            }
            shown.append(item)
        }
        return shown
    }

    /// The outermost listed folder above `item` that it went with: restoring that folder
    /// brings it back.
    func outermostListedFolder(of item: DeletedItem) -> String? {
        deletedAncestors(of: item.path).last { listedFolders.contains($0.path) && wentWith(item, $0) }?.path
    }

    /// What restoring `folder` brings back: the items below it that went with it, but for
    /// those whose content went on elsewhere (a file moved out of it before it went) and
    /// what was in a folder renamed out of it.
    func restorable(with folder: DeletedItem) -> [DeletedItem] {
        items.values.filter { item in
            guard item.path != folder.path, item.movedTo == nil, wentWith(item, folder) else { return false }
            let between = deletedAncestors(of: item.path).prefix { $0.path != folder.path }
            return !(item.isFolder && rename(of: item) != nil) && !between.contains { rename(of: $0) != nil }
        }
    }

    /// The renamed folders (see the type): each folder that files went on from under one
    /// new folder name, with no file below it that went with it deleted outright.
    private func findRenames() -> [String: (from: String, to: String)] {
        var newNames: [String: Set<String>] = [:]
        var example: [String: (from: String, to: String)] = [:]
        var deletedOutright: Set<String> = []
        // Files only: a renamed folder's links arrive anew, naming no origin, like folders.
        for item in items.values where item.last?.state?.kind == .file {
            for folder in deletedAncestors(of: item.path) where wentWith(item, folder) {
                guard let movedTo = item.movedTo else {
                    deletedOutright.insert(folder.path)
                    continue
                }
                let name = item.path.dropFirst(folder.path.count)  // "/sub/x"
                guard movedTo.hasSuffix(name) else { continue }
                let newFolder = String(movedTo.dropLast(name.count))
                guard !newFolder.isEmpty, !Self.isSameOrBelow(folder.path, newFolder), !Self.isSameOrBelow(newFolder, folder.path) else { continue }
                newNames[folder.path, default: []].insert(newFolder)
                example[folder.path] = example[folder.path] ?? (item.path, movedTo)
            }
        }
        return example.filter { newNames[$0.key]?.count == 1 && !deletedOutright.contains($0.key) }
    }

    /// Whether `path` is `folder` or below it.
    private static func isSameOrBelow(_ path: String, _ folder: String) -> Bool {
        path == folder || (path.hasPrefix(folder) && path.utf8.dropFirst(folder.utf8.count).first == UInt8(ascii: "/"))
    }
}
