import Foundation
import Synchronization

/// fsyncs of many files or folders, issued from several threads at once. Each fsync
/// waits for its own writes and then for a flush of the disk's cache; fsyncs waiting side
/// by side share their flushes (the block layer merges the flushes that queue up), where
/// fsyncs in turn pay one flush each.
enum ConcurrentSync {
    /// Enough to keep the disk's queue busy; the threads mostly wait, so not tied to cores.
    static let threads = 16

    /// `fsync(_:folders: true)`, unless `faults` makes folder fsyncs fail ("fsync folder"),
    /// as a failing disk would.
    static func fsyncFolders(_ folders: [String], faults: FaultInjection?) throws(SyncError) {
        if let injected = faults?.failure(of: "fsync folder"), let first = folders.first {
            throw .system("fsync", first, errno: injected)
        }
        try fsync(folders, folders: true)
    }

    /// Makes each of `paths` durable (files written and closed earlier, or folders given
    /// new names); the first failure is thrown once every thread has stopped.
    static func fsync(_ paths: [String], folders: Bool) throws(SyncError) {
        let one: @Sendable (String) throws(SyncError) -> Void = folders ? Sys.fsyncFolder : Sys.fsyncFile
        guard paths.count > 1 else {
            for path in paths { try one(path) }
            return
        }
        let work = Work(paths)
        let group = DispatchGroup()
        for _ in 0..<min(threads, paths.count) {
            group.enter()
            Thread {
                defer { group.leave() }
                work.drain(one)
            }.start()
        }
        group.wait()
        if let failure = work.failure { throw failure }
    }

    /// The paths still to sync, shared by the threads, and the first failure.
    private final class Work: Sendable {
        let paths: [String]
        private let state = Mutex((next: 0, failure: SyncError?.none))

        init(_ paths: [String]) { self.paths = paths }

        var failure: SyncError? { state.withLock { $0.failure } }

        /// Syncs paths until none is left or one failed.
        func drain(_ one: (String) throws(SyncError) -> Void) {
            while let index = take() {
                do throws(SyncError) {
                    try one(paths[index])
                } catch {
                    state.withLock { $0.failure = $0.failure ?? error }
                }
            }
        }

        private func take() -> Int? {
            state.withLock { state in
                guard state.failure == nil, state.next < paths.count else { return nil }
                defer { state.next += 1 }
                return state.next
            }
        }
    }
}
