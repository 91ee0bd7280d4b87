import RawPaths

/// Turns kernel events into `WatchEvent`s and the watch-table work they imply.
///
/// A pure state machine: the thread that owns libinotifytools feeds it events and carries
/// out the actions it returns (watch a new folder, drop watches). Folder renames arrive as
/// a `MOVED_FROM` immediately followed by a `MOVED_TO` with the same cookie; a
/// `MOVED_FROM` whose partner is not the very next event was a move out of the tree.
public struct EventTranslator: Sendable {
    /// Work the watcher thread must do for the translator.
    public enum Action: Sendable, Hashable {
        case emit(WatchEvent)
        /// Watch this folder and every folder below it, then rescan it (files created right
        /// after `mkdir` came before the watch existed).
        case watchSubtree(RawPath)
        /// Watch the folders below this watched folder that have no watch yet: made there
        /// while the watcher was behind, their own creation looked for them elsewhere (the
        /// folder was renamed meanwhile: `mkdir w/c && mv w v`).
        case watchFoldersBelow(RawPath)
        /// Drop these watches: their folders left the tree.
        case unwatch([Int32])
        /// Drop every watch (after a queue overflow), but only forget those whose folder is
        /// no longer at its path: the kernel dropped their watches with the folders, and
        /// the `IN_IGNORED` events that said so were among those lost.
        case unwatchOrForget([Int32: RawPath])
        /// Forget these watches: the kernel dropped them already (their folders were
        /// deleted, or their file system unmounted), so there is nothing to remove.
        case forget([Int32])
        /// The library's own name map must follow a rename.
        case renameInLibrary(from: RawPath, to: RawPath)
    }

    public private(set) var table = WatchTable()
    private var pendingFolderMove: (cookie: UInt32, path: RawPath)?

    public init() {}

    public mutating func registerWatch(_ watch: Int32, path: RawPath) {
        table.insert(watch: watch, path: path)
    }

    /// Translates one event. `cookieName(_:)` says whether a root-level name is a sync cookie.
    public mutating func translate(_ event: KernelEvent) -> [Action] {
        var actions = resolvePendingMove(before: event)
        if event.mask.contains(.queueOverflow) {
            // The lost events may be the ones that keep the table true (folders made,
            // renamed, removed): every watch goes, and the whole tree is watched and
            // rescanned anew, as watchman recrawls.
            return actions + [.unwatchOrForget(table.removeAll()), .watchSubtree(RawPath())]
        }
        guard let folder = table.path(of: event.watch) else { return actions }
        if event.name.isEmpty {
            actions += translateSelfEvent(event, folder: folder)
        } else {
            let path = folder.appending(event.name)
            actions += event.mask.contains(.isDirectory)
                ? translateFolderEvent(event, path: path)
                : translateFileEvent(event, path: path, inRoot: folder.isEmpty)
        }
        return actions
    }

    /// Called when no event arrived for a while: a folder move still waiting for its
    /// `MOVED_TO` was a move out of the tree.
    public mutating func flushPendingMove() -> [Action] {
        guard let pending = pendingFolderMove else { return [] }
        pendingFolderMove = nil
        return movedOut(pending.path)
    }

    private mutating func resolvePendingMove(before event: KernelEvent) -> [Action] {
        guard let pending = pendingFolderMove else { return [] }
        let isPartner = event.mask.contains(.movedTo) && event.cookie == pending.cookie
        if isPartner { return [] }
        pendingFolderMove = nil
        return movedOut(pending.path)
    }

    private mutating func movedOut(_ path: RawPath) -> [Action] {
        let watches = table.watches(under: path)
        for watch in watches { table.remove(watch: watch) }
        return [.unwatch(watches), .emit(.removed(path))]
    }

    private mutating func translateSelfEvent(_ event: KernelEvent, folder: RawPath) -> [Action] {
        if event.mask.contains(.ignored) {
            table.remove(watch: event.watch)
            return [.forget([event.watch])]
        }
        if event.mask.contains(.unmount) || (folder.isEmpty && event.mask.contains(.deleteSelf)) {
            return [.emit(.rescan(folder))]
        }
        return []
    }

    private mutating func translateFolderEvent(_ event: KernelEvent, path: RawPath) -> [Action] {
        let mask = event.mask
        if mask.contains(.movedFrom) {
            pendingFolderMove = (event.cookie, path)
            return []
        }
        if mask.contains(.movedTo) {
            if let pending = pendingFolderMove, pending.cookie == event.cookie {
                pendingFolderMove = nil
                table.move(from: pending.path, to: path)
                // The watches first: the move's reconcile then sees what came before them.
                return [
                    .renameInLibrary(from: pending.path, to: path), .watchFoldersBelow(path), .emit(.moved(from: pending.path, to: path)),
                ]
            }
            return [.watchSubtree(path)]
        }
        if mask.contains(.create) { return [.watchSubtree(path)] }
        if mask.contains(.delete) { return [.emit(.removed(path))] }
        if mask.contains(.attrib) { return [.emit(.touched(path, stillOpen: false))] }
        return []
    }

    private func translateFileEvent(_ event: KernelEvent, path: RawPath, inRoot: Bool) -> [Action] {
        let mask = event.mask
        if inRoot, mask.contains(.create), event.name.starts(with: WatchEvent.cookiePrefix.utf8) {
            return [.emit(.cookie(String(decoding: event.name, as: UTF8.self)))]
        }
        if mask.contains(.movedFrom) || mask.contains(.delete) { return [.emit(.removed(path))] }
        if mask.contains(.modify) { return [.emit(.touched(path, stillOpen: true))] }
        if !mask.isDisjoint(with: [.closeWrite, .create, .movedTo, .attrib]) {
            return [.emit(.touched(path, stillOpen: false))]
        }
        return []
    }
}
