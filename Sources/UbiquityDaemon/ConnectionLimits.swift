import Foundation
import Glibc

/// What keeps API clients from hurting ubqd (docs/API.md, "Limits"): how many connections
/// are served at once, and how long a connection may say nothing. The body size limit is
/// `DaemonRequestContext.maximumBodySize`.
struct ConnectionLimits: Sendable, CustomStringConvertible {
    /// Connections beyond this many wait in the listen backlog and are accepted as others
    /// close (Hummingbird's `MaximumAvailableConnections`), so they cannot use up the
    /// descriptors the daemon needs for its own work.
    var maximumConnections: Int
    /// A connection that sends nothing for this long, before or inside a request, is closed.
    /// A connection waiting for its answer (a live query stream) is not idle.
    var idleTimeout: Duration
    /// The open-file limit in force.
    var openFiles: Int

    static let defaultIdleTimeout: Duration = .seconds(60)
    /// The longest `UBQ_IDLE_TIMEOUT` taken, in seconds.
    static let longestIdleTimeout: Double = 86_400
    static let mostConnections = 4096
    /// Descriptors kept for the daemon's own work: the index, the watcher, sync, locks.
    static let reservedDescriptors = 256

    /// The limits for `openFiles` descriptors. `UBQ_MAX_CONNECTIONS` and
    /// `UBQ_IDLE_TIMEOUT` (seconds) override them, for tests.
    static func resolve(openFiles: Int, environment: [String: String] = ProcessInfo.processInfo.environment) -> ConnectionLimits {
        let fitting = min(mostConnections, max(16, openFiles - reservedDescriptors))
        let connections = environment["UBQ_MAX_CONNECTIONS"].flatMap { Int($0) }.map { max(1, $0) } ?? fitting
        // Finite and at most a day: a Duration of 1e13 s no longer fits NIO's nanoseconds, and
        // converting 1e300 or inf traps (ubqd died at start on such a value).
        let idle = environment["UBQ_IDLE_TIMEOUT"].flatMap { Double($0) }.flatMap { $0.isFinite ? $0 : nil }
            .map { Duration.milliseconds(Int64(min(max(0.05, $0), Self.longestIdleTimeout) * 1000)) }
        return ConnectionLimits(maximumConnections: connections, idleTimeout: idle ?? defaultIdleTimeout, openFiles: openFiles)
    }

    var description: String {
        "at most \(maximumConnections) connections at once, idle ones closed after \(idleTimeout), \(openFiles) open files allowed"
    }
}

/// The process's open-file limit (`ulimit -n`).
enum OpenFileLimit {
    /// Raises the soft limit to the hard one, as systemd advises daemons that wait with epoll
    /// (systemd gives services 1024 soft, 524288 hard), and returns the soft limit in force.
    /// libinotifytools waits with select(), which breaks on descriptors from 1024 up; its one
    /// descriptor is opened at start-up, before any connection, so it stays below.
    static func raise() -> Int {
        var limit = rlimit()
        guard getrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(RLIMIT_NOFILE_VALUE, &raised) == 0 { limit = raised }
        }
        return Int(clamping: min(limit.rlim_cur, rlim_t(Int32.max)))  // RLIM_INFINITY is rlim_t.max
    }

    /// `RLIMIT_NOFILE`, which Glibc imports as an enum case.
    private static let RLIMIT_NOFILE_VALUE = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
}
