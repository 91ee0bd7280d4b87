import Foundation

/// A mirror that does not answer: a network share whose server went away, a disk that
/// hangs. Calls to it block (NFS and sshfs mounts wait for the server by default), so the
/// sync thread waits with them; the status says so instead of showing the last pass's
/// `idle`. Between passes the calls are a few `open`s and small reads, answered in
/// milliseconds when the mirror is there, so a wait of seconds is the mirror's. During a
/// pass, a `MirrorProbe` asks instead: the pass's own calls may rightly take long.
extension SyncEngine {
    /// Runs `body`, which calls the mirror, noting when the wait began. Such calls run one
    /// at a time, on the daemon's sync queue, and never inside one another.
    func awaitingMirror<Result>(_ body: () throws -> Result) rethrows -> Result {
        statusLock.withLock { mirrorCallStarted = .now }
        defer { statusLock.withLock { mirrorCallStarted = nil } }
        faults?.reach("mirror call")
        return try body()
    }

    /// Runs `body` (passes, a collection of the store, a user's request) with a
    /// `MirrorProbe` asking the mirror meanwhile. Within another such call (a pass that
    /// `ubq resolve` runs), the probe already asking goes on.
    public func probingMirror<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        // Only the sync thread starts probes, so nothing starts one between this look and the next.
        if statusLock.withLock({ mirrorProbe != nil }) { return try body() }
        let probe = MirrorProbe(marker: layout.marker, interval: mirrorProbeInterval, faults: faults)
        statusLock.withLock { mirrorProbe = probe }
        defer {
            probe.stop()
            statusLock.withLock { mirrorProbe = nil }
        }
        return try body()
    }

    /// How long the mirror has not answered a call, once that is past the call's limit; nil
    /// while it answers. Safe from any thread.
    public var mirrorSilence: Duration? {
        statusLock.withLock { mirrorUnanswered() }
    }

    /// How long a call to the mirror has waited, once that is past its limit
    /// (`mirrorSilenceLimit`, `probeSilenceLimit` for the probe's); nil otherwise. Called
    /// under `statusLock`.
    func mirrorUnanswered() -> Duration? {
        let now = ContinuousClock.now
        let waits = [(mirrorCallStarted, mirrorSilenceLimit), (mirrorProbe?.callStarted, probeSilenceLimit)].compactMap { started, limit in
            started.map { $0.duration(to: now) }.flatMap { $0 >= limit ? $0 : nil }
        }
        return waits.max()
    }

    public static func unansweredNote(mirror: String, waited: Duration) -> String {
        "the mirror \(mirror) has not answered for \(waited.components.seconds) s (a network share whose server is away, or a disk that hangs: check the connection); sync goes on when it answers, and nothing is lost meanwhile"
    }
}
