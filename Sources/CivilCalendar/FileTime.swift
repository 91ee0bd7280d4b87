/// A file's time (`st_mtim`, `st_ctim`: whole seconds and nanoseconds) as one count since
/// 1970. Any time a filesystem holds must convert: `touch -d 2300-01-01` makes a time whose
/// nanoseconds exceed Int64 (past 2262-04-11), and Swift traps on the overflow, which took
/// the daemon down at start for as long as such a file stayed in a container. Out of range,
/// the count saturates at Int64's ends: still later (or earlier) than any time within it.
public enum FileTime {
    public static func nanoseconds(seconds: Int64, nanoseconds: Int64) -> Int64 {
        count(seconds: seconds, nanoseconds: nanoseconds, perSecond: 1_000_000_000)
    }

    public static func milliseconds(seconds: Int64, nanoseconds: Int64) -> Int64 {
        count(seconds: seconds, nanoseconds: nanoseconds, perSecond: 1_000)
    }

    /// A count of nanoseconds since 1970 as whole seconds and nanoseconds, as `timespec`
    /// holds it: the nanoseconds are never negative (a time before 1970 borrows a second).
    public static func parts(ofNanoseconds count: Int64) -> (seconds: Int64, nanoseconds: Int64) {
        let (seconds, fraction) = count.quotientAndRemainder(dividingBy: 1_000_000_000)
        return fraction < 0 ? (seconds - 1, fraction + 1_000_000_000) : (seconds, fraction)
    }

    private static func count(seconds: Int64, nanoseconds: Int64, perSecond: Int64) -> Int64 {
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: perSecond)
        if overflow { return seconds < 0 ? .min : .max }
        let (total, carried) = whole.addingReportingOverflow(nanoseconds / (1_000_000_000 / perSecond))
        return carried ? (nanoseconds < 0 ? .min : .max) : total
    }
}
