import Foundation

/// The wall clock versions are stamped with (docs/MIRROR-FORMAT.md, `time`).
public enum SyncClock {
    /// Milliseconds since 1970-01-01 UTC.
    public static func nowMilliseconds() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}

/// How long a pass took, in wall time and in CPU time of the thread that ran it: the log
/// line of a pass shows both, so a slow pass tells whether it waited (disk, fsync) or worked.
struct PassTimer {
    private let start = Self.seconds(CLOCK_MONOTONIC)
    private let startCPU = Self.seconds(CLOCK_THREAD_CPUTIME_ID)

    var description: String {
        let elapsed = Self.seconds(CLOCK_MONOTONIC) - start
        let cpu = Self.seconds(CLOCK_THREAD_CPUTIME_ID) - startCPU
        return "in \(Self.format(elapsed)) s (\(Self.format(cpu)) s of CPU)"
    }

    private static func seconds(_ clock: clockid_t) -> Double {
        var now = timespec()
        clock_gettime(clock, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    private static func format(_ seconds: Double) -> String { String(format: "%.2f", seconds) }
}
