import CInotifyTools
import CStatx
import FileEvents
import Foundation
import Logging
import RawPaths

/// Watches a folder tree with libinotifytools and streams `WatchEvent`s.
///
/// libinotifytools is not thread-safe (one static fd, one static event buffer, a global
/// error: LINUX-NOTES.md), so every call into it happens on one dedicated thread, and at
/// most one watcher may run per process. Everything the thread decides about events is
/// done by the pure `EventTranslator`; this type only carries out its actions.
public final class InotifyWatcher: Sendable {
    public let root: RawPath
    public let events: AsyncStream<WatchEvent>
    private let continuation: AsyncStream<WatchEvent>.Continuation
    private let control: WatcherControl
    private let logger: Logger
    /// The first walk's progress (see `startWalking()`).
    public let walk = WalkProgress()

    /// - Parameters:
    ///   - pollInterval: how often folders that could not be watched (out of inotify
    ///     watches) are rescanned instead.
    ///   - watchLimit: behave as if the kernel refused watches beyond this many (ENOSPC),
    ///     to exercise the polling fallback without lowering the system-wide limit.
    ///   - renewalAfter: after how many deleted folders libinotifytools starts afresh, to
    ///     free what it keeps of each (see `WatcherThread.renewLibrary`).
    public init(
        root: RawPath, pollInterval: Duration = .seconds(5), watchLimit: Int? = nil, renewalAfter: Int = InotifyWatcher.renewalAfter,
        logger: Logger
    ) {
        self.root = root
        self.logger = logger
        (events, continuation) = AsyncStream.makeStream(of: WatchEvent.self, bufferingPolicy: .unbounded)
        control = WatcherControl(pollInterval: pollInterval, watchLimit: watchLimit, renewalAfter: renewalAfter)
    }

    /// 20,000 deleted folders leave about 4.5 MB in libinotifytools (224 bytes each,
    /// measured); starting afresh costs a walk and a rescan of the tree.
    public static let renewalAfter = 20_000

    /// Starts the watcher thread and returns once the whole tree is watched, so that a
    /// scan started afterwards misses nothing.
    public func start() async throws(WatcherError) {
        try await startWalking()
        await walk.finishedWalking()
    }

    /// Starts the watcher thread and returns once the root folder is watched; the thread
    /// goes on watching the folders below it, and a scan that reads each folder only after
    /// `walk.waitUntilWatched(_:)` for it misses nothing, while both run at once.
    public func startWalking() async throws(WatcherError) {
        try control.claimProcessWideLibrary()
        let thread = WatcherThread(root: root, control: control, progress: walk, output: continuation, logger: logger)
        let started: Result<Void, WatcherError> = await withCheckedContinuation { ready in
            Thread {
                _ = ubq_name_this_thread("ubq-inotify")
                thread.run(onReady: { ready.resume(returning: $0) })
            }.start()
        }
        try started.get()
    }

    /// Asks the thread to stop; it notices within a second (the library's timeout is in
    /// whole seconds) and finishes the event stream.
    public func stop() {
        control.requestStop()
    }

    /// The number of folders currently watched, and those polled instead.
    public var watchedFolderCount: Int { control.watchedFolders }
    public var polledFolderCount: Int { control.polledFolders }
}

/// An error starting the watcher, with what to do about it.
public struct WatcherError: Error, Sendable, CustomStringConvertible {
    public enum Code: Sendable { case alreadyRunning, initializationFailed, rootNotWatchable }
    public var code: Code
    public var message: String
    public var description: String { message }
}
