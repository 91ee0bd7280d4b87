import Foundation

/// The wall clock versions are stamped with (docs/MIRROR-FORMAT.md, `time`).
public enum SyncClock {
    /// Milliseconds since 1970-01-01 UTC.
    public static func nowMilliseconds() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}
