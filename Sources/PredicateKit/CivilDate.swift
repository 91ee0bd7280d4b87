import CivilCalendar

/// Proleptic Gregorian calendar arithmetic on days since 1970-01-01 (Howard Hinnant's
/// algorithms), so that `$time.this_month` needs no Foundation calendar.
enum CivilDate {
    static func toDays(year: Int64, month: Int64, day: Int64) -> Int64 {
        CivilCalendar.days(year: year, month: month, day: day)
    }

    static func fromDays(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        CivilCalendar.date(days: days)
    }

    /// 0 for Sunday … 6 for Saturday (1970-01-01 was a Thursday).
    static func weekday(_ days: Int64) -> Int64 { (days + 4).floorModulo(7) }

    /// `YYYY-MM-DD`, optionally `THH:MM[:SS]` and `Z` or `±HH:MM`; seconds since 2001.
    static func parseISO8601(_ text: String) -> Double? {
        let parts = text.split(separator: "T", maxSplits: 1).map(String.init)
        let date = (parts.first ?? "").split(separator: "-").compactMap { Int64($0) }
        guard date.count == 3, (0...9999).contains(date[0]), (1...12).contains(date[1]), (1...31).contains(date[2])
        else { return nil }
        var seconds = Double(toDays(year: date[0], month: date[1], day: date[2])) * 86_400
        if parts.count == 2 {
            guard let time = parseTimeOfDay(parts[1]) else { return nil }
            seconds += time
        }
        return seconds - TimeContext.unixToReferenceDate
    }

    private static func parseTimeOfDay(_ text: String) -> Double? {
        var clock = text
        var zone: Double = 0
        if clock.hasSuffix("Z") {
            clock.removeLast()
        } else if let signIndex = clock.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let sign: Double = clock[signIndex] == "-" ? -1 : 1
            let fields = clock[clock.index(after: signIndex)...].split(separator: ":").compactMap { Double($0) }
            guard let hours = fields.first else { return nil }
            zone = sign * (hours * 3600 + (fields.count > 1 ? fields[1] * 60 : 0))
            clock = String(clock[..<signIndex])
        }
        let fields = clock.split(separator: ":").compactMap { Double($0) }
        guard (2...3).contains(fields.count) else { return nil }
        return fields[0] * 3600 + fields[1] * 60 + (fields.count == 3 ? fields[2] : 0) - zone
    }
}
