import Foundation
import Synchronization

/// State shared between the watcher thread and the rest of the process.
final class WatcherControl: Sendable {
    let pollInterval: Duration
    let watchLimit: Int?
    /// After how many watches the kernel dropped the library starts afresh (`WatcherThread.renewLibrary`).
    let renewalAfter: Int
    private let state = Mutex(State())
    /// libinotifytools has one static inotify instance per process.
    private static let libraryClaimed = Atomic<Bool>(false)

    struct State {
        var stopRequested = false
        var watchedFolders = 0
        var polledFolders = 0
    }

    init(pollInterval: Duration, watchLimit: Int?, renewalAfter: Int) {
        self.pollInterval = pollInterval
        self.watchLimit = watchLimit
        self.renewalAfter = renewalAfter
    }

    func claimProcessWideLibrary() throws(WatcherError) {
        let (exchanged, _) = Self.libraryClaimed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
        guard exchanged else {
            throw WatcherError(code: .alreadyRunning, message: "an inotify watcher already runs in this process (libinotifytools allows one)")
        }
    }

    func releaseProcessWideLibrary() {
        Self.libraryClaimed.store(false, ordering: .releasing)
    }

    func requestStop() { state.withLock { $0.stopRequested = true } }
    var stopRequested: Bool { state.withLock { $0.stopRequested } }

    func record(watched: Int, polled: Int) {
        state.withLock {
            $0.watchedFolders = watched
            $0.polledFolders = polled
        }
    }

    var watchedFolders: Int { state.withLock { $0.watchedFolders } }
    var polledFolders: Int { state.withLock { $0.polledFolders } }
}
