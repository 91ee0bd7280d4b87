import Dispatch
import Foundation
import Glibc
import Synchronization

/// Asks the mirror, from a thread of its own, whether it answers, while a pass runs.
///
/// A pass calls the mirror in many places (logs read and appended, objects stored and
/// fetched, views), and a mirror that stops answering (a network share whose server went
/// away) blocks whichever call it is in. Timing each of those would mean threading a watch
/// through the executor; and the time a call takes says little on its own, since copying a
/// large file takes long. This probe opens the mirror's marker once every `interval`, a call
/// that takes microseconds on a mirror that answers; one still waiting is the mirror's
/// silence (`callStarted`), whatever the pass is doing.
final class MirrorProbe: Sendable {
    private let marker: String
    private let interval: Duration
    private let faults: FaultInjection?
    private let stopped = DispatchSemaphore(value: 0)
    /// When the probe's call still waiting began (nil between calls).
    private let started = Mutex<ContinuousClock.Instant?>(nil)

    /// Starts probing `marker` every `interval`, until `stop()`.
    init(marker: String, interval: Duration, faults: FaultInjection?) {
        self.marker = marker
        self.interval = interval
        self.faults = faults
        let thread = Thread { [self] in run() }
        thread.name = "ubq mirror probe"
        thread.start()
    }

    /// When the call still waiting for the mirror began, if one is.
    var callStarted: ContinuousClock.Instant? { started.withLock { $0 } }

    /// Ends the probing. A call waiting on a mirror that does not answer still ends when it
    /// answers (or the thread with the process): there is at most one per probe.
    func stop() {
        stopped.signal()
    }

    private func run() {
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        while stopped.wait(timeout: .now() + seconds) == .timedOut {
            started.withLock { $0 = .now }
            faults?.reach("mirror probe")
            let fd = open(marker, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            if fd >= 0 { close(fd) }
            started.withLock { $0 = nil }
        }
    }
}
