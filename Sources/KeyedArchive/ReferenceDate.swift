import CivilCalendar

/// A point in time as NSDate stores it: seconds since 2001-01-01T00:00:00Z. The codec has no
/// Foundation, so this type carries dates; `Foundation.Date(timeIntervalSinceReferenceDate:)`
/// converts without loss.
public struct ReferenceDate: Hashable, Sendable, Codable, Comparable {
    public var secondsSince2001: Double

    public init(secondsSince2001: Double) {
        self.secondsSince2001 = secondsSince2001
    }

    public static func < (lhs: ReferenceDate, rhs: ReferenceDate) -> Bool {
        lhs.secondsSince2001 < rhs.secondsSince2001
    }

    /// Days from 1970-01-01 to 2001-01-01.
    static let epochOffsetDays: Int64 = 11_323

    /// Beyond about ±31,000 years the microsecond count would not fit in an Int64.
    private static let printableRange = -1e12...1e12

    /// `YYYY-MM-DDTHH:MM:SS.ffffffZ`, the form `nska-json-v1` uses for `$iso`; "invalid" for
    /// values that are not a time (NaN, infinities, or beyond ±31,000 years).
    public var iso8601Microseconds: String {
        guard Self.printableRange.contains(secondsSince2001) else { return "invalid" }
        let scaled = secondsSince2001 * 1_000_000
        let micros = Int64(scaled + (scaled < 0 ? -0.5 : 0.5))
        let (seconds, fraction) = Self.floorDivide(micros, 1_000_000)
        let text = Self.civilText(seconds)
        return text + "." + Self.padded(fraction, 6) + "Z"
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, the form of XML property lists (whole seconds).
    public var iso8601Seconds: String {
        guard Self.printableRange.contains(secondsSince2001) else { return "invalid" }
        return Self.civilText(Self.floor(secondsSince2001)) + "Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff]Z`; nil if the text has another shape.
    public init?(iso8601 text: String) {
        let chars = Array(text.utf8)
        guard chars.count >= 20, chars.last == UInt8(ascii: "Z") else { return nil }
        func number(_ start: Int, _ length: Int) -> Int64? {
            Int64(String(decoding: chars[start..<(start + length)], as: UTF8.self))
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        var fraction = 0.0
        if chars.count > 20 {
            guard chars[19] == UInt8(ascii: "."), let value = Double("0" + String(decoding: chars[19..<(chars.count - 1)], as: UTF8.self)) else { return nil }
            fraction = value
        }
        let days = CivilCalendar.days(year: year, month: month, day: day) - Self.epochOffsetDays
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second
        self.init(secondsSince2001: Double(seconds) + fraction)
    }

    /// Rounds down without libm (the target links nothing but the Swift runtime).
    private static func floor(_ value: Double) -> Int64 {
        let truncated = Int64(value)
        return Double(truncated) > value ? truncated - 1 : truncated
    }

    private static func civilText(_ secondsSince2001: Int64) -> String {
        let (days, secondOfDay) = floorDivide(secondsSince2001, 86_400)
        let (year, month, day) = CivilCalendar.date(days: days + epochOffsetDays)
        return padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2) + "T"
            + padded(secondOfDay / 3_600, 2) + ":" + padded(secondOfDay / 60 % 60, 2) + ":" + padded(secondOfDay % 60, 2)
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value / divisor, remainder = value % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    private static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(abs(value))
        let body = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return value < 0 ? "-" + body : body
    }
}
