import FileEvents
import Foundation
import Logging
import ServiceLifecycle
import Watching

/// Feeds watcher events through the pipeline until shutdown, and releases settled paths
/// when their quiet period ends. Its settle loop is the daemon's heartbeat for systemd's
/// watchdog.
struct IndexService: Service, CustomStringConvertible {
    let watcher: InotifyWatcher
    let pipeline: IndexPipeline
    let notifier: SystemdNotifier
    let logger: Logger

    /// How the service group names it in its log lines (not a dump of every field).
    var description: String { "IndexService" }

    func run() async throws {
        let (kicks, kick) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let liveness = LivenessReporter(notifier: notifier)
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await forwardEvents(kick: kick) }
                group.addTask { await settleLoop(kicks: kicks, liveness: liveness) }
                if let interval = liveness?.wakeInterval {
                    group.addTask { await wake(kick, every: interval) }
                }
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

    /// Wakes an idle settle loop so that it turns (and reports it) while nothing changes.
    /// It proves nothing itself: only the loop's trip through the pipeline does.
    private func wake(_ kick: AsyncStream<Void>.Continuation, every interval: Duration) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            kick.yield()
        }
    }

    /// Sleeps until the next path settles (or until an event arrives when none is
    /// pending), then applies what settled. Waits at least `batchInterval` between two
    /// applications, so a burst of changes is written in a few large transactions rather
    /// than one per file.
    private func settleLoop(kicks: AsyncStream<Void>, liveness: LivenessReporter?) async {
        var wakeups = kicks.makeAsyncIterator()
        var liveness = liveness
        let batchInterval: Duration = .milliseconds(10)
        // A path may take seconds to settle (a file still open); the watchdog cannot wait that long.
        let longestSleep = liveness?.wakeInterval ?? .seconds(3600)
        while !Task.isCancelled {
            if let wait = await pipeline.nanosecondsUntilNextDeadline() {
                try? await Task.sleep(for: min(max(.nanoseconds(wait), batchInterval), longestSleep))
            } else if await wakeups.next() == nil {
                return
            }
            await pipeline.applySettled()
            liveness?.loopTurned()
        }
    }
}
