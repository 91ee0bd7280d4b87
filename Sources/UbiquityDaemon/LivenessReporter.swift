import Foundation

/// Tells systemd's watchdog that the index pipeline's loop still turns: the loop calls
/// `loopTurned()` after each round trip through the pipeline actor, and a `WATCHDOG=1`
/// goes out at most every quarter of the timeout. A wedged pipeline (a stuck write, a
/// deadlocked actor) stops the loop, so the pings stop and systemd restarts the daemon;
/// a timer of its own would keep pinging for a dead daemon.
struct LivenessReporter {
    let notifier: SystemdNotifier
    let timeout: Duration
    private var lastPing: ContinuousClock.Instant?

    init?(notifier: SystemdNotifier) {
        guard let timeout = notifier.watchdogTimeout else { return nil }
        self.notifier = notifier
        self.timeout = timeout
    }

    /// How often the loop must be woken, even with nothing to do: half the timeout, as
    /// sd_watchdog_enabled(3) advises.
    var wakeInterval: Duration { timeout / 2 }

    mutating func loopTurned(now: ContinuousClock.Instant = .now) {
        if let lastPing, now - lastPing < timeout / 4 { return }
        notifier.notify("WATCHDOG=1")
        lastPing = now
    }
}
