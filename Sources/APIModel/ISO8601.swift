import CivilCalendar

/// ISO 8601 formatting of NSDate-style times without Foundation's formatters (they are
/// slow to create and this runs for every date of every listed item).
public enum ISO8601 {
    /// Seconds from 1970-01-01 to 2001-01-01, the NSDate reference date.
    public static let referenceDateOffset: Double = 978_307_200

    /// `2026-11-22T08:55:19.123456Z` (microseconds, UTC). A time outside the years 0001 to
    /// 9999 (four digits), infinite or NaN (a hand-made archive's date, a log line's time)
    /// shows as the nearest end of that range: converting it to whole microseconds would trap.
    public static func format(referenceSeconds: Double) -> String {
        let unix = referenceSeconds.isNaN ? earliest : min(max(referenceSeconds + referenceDateOffset, earliest), latest)
        return format(unixMicroseconds: Int64((unix * 1_000_000).rounded(.down)))
    }

    /// `format(referenceSeconds:)` for a file time in nanoseconds since 1970, to the
    /// microsecond exactly (a Double of seconds holds a date of today to about 0.2 µs).
    public static func format(unixNanoseconds: Int64) -> String {
        let micros = floorDivide(unixNanoseconds, 1_000).0
        return format(unixMicroseconds: min(max(micros, Int64(earliest) * 1_000_000), Int64(latest) * 1_000_000))
    }

    private static func format(unixMicroseconds micros: Int64) -> String {
        let (days, microsOfDay) = floorDivide(micros, 86_400_000_000)
        let (year, month, day) = CivilCalendar.date(days: days)
        let seconds = microsOfDay / 1_000_000
        let fraction = microsOfDay % 1_000_000
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2)).\(pad(fraction, 6))Z"
    }

    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, in seconds since 1970.
    static let earliest: Double = -62_135_596_800
    static let latest: Double = 253_402_300_799

    /// Quotient and remainder rounded down (b > 0), for any `a`: `a - quotient * b`
    /// would overflow near Int64.min.
    private static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let remainder = a % b
        return remainder < 0 ? (a / b - 1, remainder + b) : (a / b, remainder)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
