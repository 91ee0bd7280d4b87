import FileEvents
import Foundation
import Logging
import ServiceLifecycle
import Watching

/// Feeds watcher events through the pipeline until shutdown, and releases settled paths
/// when their quiet period ends.
struct IndexService: Service {
    let watcher: InotifyWatcher
    let pipeline: IndexPipeline
    let logger: Logger

    func run() async throws {
        let (kicks, kick) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        try await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await forwardEvents(kick: kick) }
                group.addTask { await settleLoop(kicks: kicks) }
                await group.next()
                group.cancelAll()
            }
        } onGracefulShutdown: {
            watcher.stop()
        }
    }

    /// Ends when the watcher stops (its stream finishes) or shutdown begins. Events still
    /// buffered then are dropped: the start-up reconciliation of the next run finds what
    /// they were about on the disk.
    private func forwardEvents(kick: AsyncStream<Void>.Continuation) async {
        for await event in watcher.events {
            if Task.isShuttingDownGracefully || Task.isCancelled { break }
            await pipeline.record(event)
            kick.yield()
        }
        kick.finish()
    }

    /// Sleeps until the next path settles (or until an event arrives when none is
    /// pending), then applies what settled. Waits at least `batchInterval` between two
    /// applications, so a burst of changes is written in a few large transactions rather
    /// than one per file.
    private func settleLoop(kicks: AsyncStream<Void>) async {
        var wakeups = kicks.makeAsyncIterator()
        let batchInterval: UInt64 = 10_000_000
        while !Task.isCancelled {
            if let wait = await pipeline.nanosecondsUntilNextDeadline() {
                try? await Task.sleep(for: .nanoseconds(max(wait, batchInterval)))
            } else if await wakeups.next() == nil {
                return
            }
            await pipeline.applySettled()
        }
    }
}
