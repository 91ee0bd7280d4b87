import CInotifyTools
import FileEvents
import Foundation
import Glibc
import Logging
import RawPaths

/// The body of the one thread that calls libinotifytools.
final class WatcherThread: @unchecked Sendable {
    // @unchecked: every stored var is touched only by the watcher thread.
    private let root: RawPath
    private let control: WatcherControl
    private let progress: WalkProgress
    private let output: AsyncStream<WatchEvent>.Continuation
    private let logger: Logger
    private var translator = EventTranslator()
    private var polledFolders: Set<RawPath> = []
    private var lastPoll = ContinuousClock.now
    private var warnedAboutWatchLimit = false
    /// Watches the kernel dropped since the library last started (`renewLibrary`).
    private var forgotten = 0
    /// `renewalAfter` watches were forgotten: the library starts afresh the next time no
    /// event comes for a second.
    private var renewalDue = false
    private let leaves: LeafFolders

    init(root: RawPath, control: WatcherControl, progress: WalkProgress, output: AsyncStream<WatchEvent>.Continuation, logger: Logger) {
        self.root = root
        self.control = control
        self.progress = progress
        self.output = output
        self.logger = logger
        leaves = LeafFolders(root: root)
    }

    func run(onReady: @escaping (Result<Void, WatcherError>) -> Void) {
        defer {
            inotifytools_cleanup()
            control.releaseProcessWideLibrary()
            output.finish()
        }
        guard inotifytools_initialize() != 0 else {
            let reason = String(cString: strerror(inotifytools_error()))
            onReady(.failure(WatcherError(code: .initializationFailed, message: "inotify could not start: \(reason)")))
            return
        }
        guard watchFolder(RawPath()) else {
            progress.finish()
            onReady(.failure(WatcherError(code: .rootNotWatchable, message: "cannot watch \(root): \(String(cString: strerror(inotifytools_error())))")))
            return
        }
        onReady(.success(()))
        progress.markHandled(root)
        watchSubfolders(of: RawPath(), reporting: progress)
        progress.finish()
        loop()
    }

    private func loop() {
        while !control.stopRequested {
            guard let event = inotifytools_next_event(1) else {
                perform(translator.flushPendingMove())
                if renewalDue { renewLibrary() }
                pollUnwatchedFolders()
                continue
            }
            let kernelEvent = copy(event)
            if kernelEvent.mask.contains(.queueOverflow) { warnAboutOverflow() }
            perform(translator.translate(kernelEvent))
        }
    }

    private func warnAboutOverflow() {
        let limit = (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
        logger.warning(
            "inotify queue overflowed (fs.inotify.max_queued_events = \(limit)): events were lost, so every folder is watched and rescanned again. If this repeats: sudo sysctl fs.inotify.max_queued_events=65536")
    }

    private func copy(_ event: UnsafeMutablePointer<inotify_event>) -> KernelEvent {
        var name: [UInt8] = []
        if event.pointee.len > 0 {
            var namePointer: UnsafePointer<CChar>?
            var folderLength = 0
            _ = inotifytools_filename_from_event(event, &namePointer, &folderLength)
            if let namePointer { name = Array(UnsafeBufferPointer(start: namePointer, count: strlen(namePointer))).map { UInt8(bitPattern: $0) } }
        }
        return KernelEvent(
            watch: event.pointee.wd,
            mask: InotifyMask(rawValue: event.pointee.mask),
            cookie: event.pointee.cookie,
            name: name)
    }

    private func perform(_ actions: [EventTranslator.Action]) {
        for action in actions {
            switch action {
            case .emit(.cookie(let name)):
                // Polled folders have no watch to report their changes: rescan them before
                // the cookie, so a query waiting for it sees them too.
                for folder in polledFolders.sorted() { output.yield(.rescan(folder)) }
                output.yield(.cookie(name))
            case .emit(let event):
                output.yield(event)
            case .watchSubtree(let path):
                // The whole tree (after a queue overflow): folders polled so far are polled
                // again only if the walk finds them out of watches again.
                if path.isEmpty { polledFolders.removeAll() }
                watchSubtree(path)
                output.yield(.rescan(path))
            case .watchFoldersBelow(let path):
                watchSubfolders(of: path, reporting: nil)  // a folder watched already keeps its watch
            case .unwatch(let watches):
                for watch in watches { inotifytools_remove_watch_by_wd(watch) }
                polledFolders = polledFolders.filter { !isGone($0) }
            case .unwatchOrForget(let watches):
                let gone = watches.filter { isGone($0.value) }
                for watch in watches.keys where gone[watch] == nil { inotifytools_remove_watch_by_wd(watch) }
                forget(gone.count)
            case .forget(let watches):
                forget(watches.count)
            case .renameInLibrary(let from, let to):
                let old = libraryName(from)
                let new = libraryName(to)
                inotifytools_replace_filename(old, new)
            }
        }
        control.record(watched: translator.table.count, polled: polledFolders.count)
    }

    /// Watches the kernel dropped with their folders are not removed through the library:
    /// its `inotify_rm_watch` would fail, and it would print "Failed to remove watch on …:
    /// Unknown error -1" to ubqd's log for every folder deleted. Its entry for the name
    /// stays either way (it keeps one whose removal fails): `forgetStaleLibraryEntry` sets
    /// it aside if a new folder takes the name, and `renewLibrary` frees them all.
    private func forget(_ count: Int) {
        polledFolders = polledFolders.filter { !isGone($0) }
        forgotten += count
        renewalDue = forgotten >= control.renewalAfter
    }

    /// libinotifytools frees its entry for a watch only through `inotify_rm_watch`, which
    /// fails once the kernel dropped the watch with its folder: a deleted folder left 224
    /// bytes behind (5,000 deleted, 1.12 MB more heap: scratch program, note 57). So after
    /// `renewalAfter` of them the library starts afresh, which frees everything it holds:
    /// every folder is watched again and the tree rescanned, as after a queue overflow.
    ///
    /// Only when no event came for a second: the library's event buffer is then empty
    /// (events read from the old instance, handled after, would name its watch numbers,
    /// which the new one gives to other folders). What changes in the moment between, the
    /// rescan finds; a sync cookie made then has its event emitted from the listing. If
    /// inotify cannot start again (another program took the last instance the moment ours
    /// closed), the tree is rescanned, and cookies told, at each poll interval until it can.
    private func renewLibrary() {
        logger.info("starting libinotifytools afresh after \(forgotten) deleted folders, to free what it kept of them: every folder is watched again and the tree rescanned")
        forgotten = 0
        renewalDue = false
        inotifytools_cleanup()
        translator = EventTranslator()
        polledFolders.removeAll()
        var warned = false
        while inotifytools_initialize() == 0 {
            if !warned {
                logger.warning("inotify could not start again (\(String(cString: strerror(inotifytools_error())))): the tree is rescanned every \(control.pollInterval) until it can")
                warned = true
            }
            rescanAndTellCookies()
            guard waitOnePollInterval() else { return }
        }
        watchSubtree(RawPath())
        rescanAndTellCookies()
    }

    /// The whole tree rescanned, and the cookies in the root told: their creation may have
    /// gone with an inotify instance, and a query waits for them.
    private func rescanAndTellCookies() {
        output.yield(.rescan(RawPath()))
        for cookie in DirectoryListing.names(in: root, startingWith: WatchEvent.cookiePrefix).sorted() {
            output.yield(.cookie(cookie))
        }
    }

    /// Sleeps for the poll interval, in steps of at most a second; false if a stop was asked meanwhile.
    private func waitOnePollInterval() -> Bool {
        var left = control.pollInterval
        while left > .zero {
            if control.stopRequested { return false }
            let step = min(left, .seconds(1))
            Thread.sleep(forTimeInterval: Double(step.components.seconds) + Double(step.components.attoseconds) / 1e18)
            left -= step
        }
        return !control.stopRequested
    }

    /// Watches `relative` and every folder below it.
    private func watchSubtree(_ relative: RawPath) {
        if watchFolder(relative) { watchSubfolders(of: relative, reporting: nil) }
    }

    /// Watches every folder below the watched folder `relative`, depth first in path order
    /// (the order in which a path-ordered scan enters them), telling `progress` of each.
    private func watchSubfolders(of relative: RawPath, reporting progress: WalkProgress?) {
        var pending = Self.lastFirst(subfolders(of: relative))
        while let folder = pending.popLast() {
            let watched = watchFolder(folder)
            progress?.markHandled(absolute(folder))
            // A folder that is polled instead is rescanned whole, subfolders included.
            if watched { pending += Self.lastFirst(subfolders(of: folder)) }
        }
    }

    /// The subfolders of the watched folder `relative`; a folder whose link count says it
    /// has none is not listed (`LeafFolders`).
    private func subfolders(of relative: RawPath) -> [RawPath] {
        let folder = absolute(relative)
        if leaves.holdsNoSubfolder(folder) { return [] }
        return DirectoryListing.subfolders(of: folder, relative: relative)
    }

    /// Sibling folders in reverse path order (the stack pops the first), ordered as a
    /// path-ordered scan enters them: by their path plus `/`.
    private static func lastFirst(_ siblings: [RawPath]) -> [RawPath] {
        siblings.map { ($0, $0.bytes + [0x2F]) }.sorted { RawPath.precedes($1.1, $0.1) }.map(\.0)
    }

    private func watchFolder(_ folder: RawPath) -> Bool {
        let name = libraryName(folder)
        if let limit = control.watchLimit, translator.table.count >= limit {
            startPolling(folder)
            return false
        }
        forgetStaleLibraryEntry(name, for: folder)
        if inotifytools_watch_file(name, Int32(bitPattern: InotifyMask.watched.rawValue)) != 0 {
            let watch = inotifytools_wd_from_filename(name)
            if watch >= 0 { translator.registerWatch(watch, path: folder) }
            return true
        }
        switch inotifytools_error() {
        case ENOSPC: startPolling(folder)
        case ENAMETOOLONG: pollTooLong(folder)
        case ENOENT, ENOTDIR: break  // gone meanwhile: its parent's event says so
        case let error: logger.warning("cannot watch \(absolute(folder)): \(String(cString: strerror(error)))")
        }
        return false
    }

    /// inotify takes a path of at most PATH_MAX (4096 bytes), while a tree may go deeper
    /// (made with relative calls, or moved in whole). Such a folder's parent, which has a
    /// watch, is polled as well: a rescan from there reaches below PATH_MAX with relative
    /// calls, as `lstat` or a scan started at the folder itself could not. Rare, so each
    /// is named.
    private func pollTooLong(_ folder: RawPath) {
        guard polledFolders.insert(folder.removingLastComponent()).inserted else { return }
        logger.warning(
            "cannot watch \(absolute(folder).readable.prefix(200))… (\(absolute(folder).bytes.count) bytes of path; inotify takes \(PATH_MAX)): the folder above it is rescanned every \(control.pollInterval) instead")
    }

    /// libinotifytools keeps a folder's name after its watch went away in ways it did not
    /// follow (a folder moved under a folder not watched yet: its removal fails and the
    /// entry stays). A new folder of the same name then gets a new watch, but the library
    /// still answers the old one for the name, and the new folder's events would go
    /// unrecognized. So an entry for `name` that our own table does not hold for `folder`
    /// is renamed out of the way first (to a name no real path has: it starts with `//`).
    private func forgetStaleLibraryEntry(_ name: [CChar], for folder: RawPath) {
        let stale = inotifytools_wd_from_filename(name)
        guard stale >= 0, translator.table.path(of: stale) != folder else { return }
        let aside = Array("//ubq-stale-watch/\(stale)/".utf8CString)
        inotifytools_replace_filename(name, aside)
    }

    private func startPolling(_ folder: RawPath) {
        polledFolders.insert(folder)
        guard !warnedAboutWatchLimit else { return }
        warnedAboutWatchLimit = true
        let limit = (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_user_watches", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
        logger.warning(
            "out of inotify watches (fs.inotify.max_user_watches = \(limit)); folders from \(absolute(folder)) on are polled every \(control.pollInterval) instead. Fix: sudo sysctl fs.inotify.max_user_watches=524288 (and add it to /etc/sysctl.d/).")
    }

    private func pollUnwatchedFolders() {
        guard !polledFolders.isEmpty, ContinuousClock.now - lastPoll >= control.pollInterval else { return }
        lastPoll = .now
        for folder in polledFolders.sorted() { output.yield(.rescan(folder)) }
    }

    private func isGone(_ folder: RawPath) -> Bool {
        var info = stat()
        return absolute(folder).withCString { lstat($0, &info) } != 0
    }

    private func absolute(_ relative: RawPath) -> RawPath {
        root.appending(relative)
    }

    /// libinotifytools names folders with a trailing slash. Built from the raw bytes, so
    /// names that are not valid UTF-8 survive.
    private func libraryName(_ relative: RawPath) -> [CChar] {
        (absolute(relative).bytes + [0x2F, 0]).map { CChar(bitPattern: $0) }
    }
}
