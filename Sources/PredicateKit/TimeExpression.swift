#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The clock and time zone against which `$time.today`, `now()` and friends resolve.
/// Passed in explicitly so that tests and the index can pin it.
public struct TimeContext: Sendable, Hashable {
    /// Seconds since 2001-01-01T00:00:00Z.
    public var now: Double
    /// The local time zone's offset from UTC, for "today" and "this month".
    public var secondsFromGMT: Int

    public init(now: Double, secondsFromGMT: Int = 0) {
        self.now = now
        self.secondsFromGMT = secondsFromGMT
    }

    static let unixToReferenceDate: Double = 978_307_200

    /// The system clock and the local time zone.
    public static var current: TimeContext {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        var seconds = spec.tv_sec
        var local = tm()
        localtime_r(&seconds, &local)
        let now = Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9 - unixToReferenceDate
        return TimeContext(now: now, secondsFromGMT: Int(local.tm_gmtoff))
    }
}

/// Spotlight's `$time.now(±s)`, `$time.today(±days)`, `$time.yesterday`, `$time.tomorrow`,
/// `$time.this_week(±weeks)` (weeks start on Sunday), `$time.this_month(±months)`,
/// `$time.this_year(±years)` and `$time.iso(ISO-8601)`.
struct TimeExpression: Sendable, Hashable {
    enum Kind: String, Sendable, Hashable {
        case now, today, yesterday, tomorrow, this_week, this_month, this_year, iso

        var unit: String {
            switch self {
            case .now: "seconds"
            case .today, .yesterday, .tomorrow: "days"
            case .this_week: "weeks"
            case .this_month: "months"
            case .this_year: "years"
            case .iso: "ISO-8601 date"
            }
        }
    }

    var kind: Kind
    var offset: Double
    var iso: String? = nil

    /// The moment this names, in seconds since 2001 (nil for an unreadable ISO date).
    func resolve(in context: TimeContext) -> Double? {
        let zone = Double(context.secondsFromGMT)
        let localNow = context.now + TimeContext.unixToReferenceDate + zone
        // Calendar arithmetic below converts to Int64: keep to dates it can represent.
        guard localNow.isFinite, abs(localNow) < 1e14 else { return nil }
        let today = (localNow / 86_400).rounded(.down)
        let (year, month, _) = CivilDate.fromDays(Int64(today))
        let days: Double
        switch kind {
        case .now: return context.now + offset
        case .iso: return iso.flatMap(CivilDate.parseISO8601)
        case .today: days = today + offset
        case .yesterday: days = today - 1 + offset
        case .tomorrow: days = today + 1 + offset
        case .this_week: days = today - Double(CivilDate.weekday(Int64(today))) + 7 * offset
        case .this_month:
            let total = year * 12 + (month - 1) + Int64(offset)
            days = Double(CivilDate.toDays(year: total.floorDivided(by: 12), month: total.floorModulo(12) + 1, day: 1))
        case .this_year: days = Double(CivilDate.toDays(year: year + Int64(offset), month: 1, day: 1))
        }
        return days * 86_400 - zone - TimeContext.unixToReferenceDate
    }
}

extension Int64 {
    func floorDivided(by divisor: Int64) -> Int64 { (self - floorModulo(divisor)) / divisor }
    func floorModulo(_ divisor: Int64) -> Int64 { ((self % divisor) + divisor) % divisor }
}
