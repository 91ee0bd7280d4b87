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

    /// Ends when the watcher stops (its stream finishes).
    private func forwardEvents(kick: AsyncStream<Void>.Continuation) async {
        for await event in watcher.events {
            await pipeline.record(event)
            kick.yield()
        }
        kick.finish()
    }

    /// Sleeps until the next path settles (or until an event arrives when none is
    /// pending), then applies what settled.
    private func settleLoop(kicks: AsyncStream<Void>) async {
        var wakeups = kicks.makeAsyncIterator()
        while !Task.isCancelled {
            if let wait = await pipeline.nanosecondsUntilNextDeadline() {
                if wait > 0 { try? await Task.sleep(for: .nanoseconds(wait)) }
            } else if await wakeups.next() == nil {
                return
            }
            await pipeline.applySettled()
        }
    }
}
