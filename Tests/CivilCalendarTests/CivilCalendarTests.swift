import CivilCalendar
import Testing

@Suite struct CivilCalendarTests {
    @Test(arguments: [
        (Int64(0), Int64(1970), Int64(1), Int64(1)), (11_323, 2001, 1, 1), (-1, 1969, 12, 31),
        (11_016, 2000, 2, 29), (-719_468, 0, 3, 1), (2_932_896, 9999, 12, 31),
    ])
    func knownDates(days: Int64, year: Int64, month: Int64, day: Int64) {
        #expect(CivilCalendar.days(year: year, month: month, day: day) == days)
        let date = CivilCalendar.date(days: days)
        #expect(date.year == year && date.month == month && date.day == day)
    }

    @Test func everyDayOfFourCenturiesRoundTrips() {
        var previous: (year: Int64, month: Int64, day: Int64)?
        for days in Int64(-146_097)...146_097 {
            let date = CivilCalendar.date(days: days)
            #expect(CivilCalendar.days(year: date.year, month: date.month, day: date.day) == days)
            if let previous, date.day != previous.day + 1 { #expect(date.day == 1) }
            previous = date
        }
    }
}

/// File times convert to one count whatever the filesystem holds: past 2262 the
/// nanoseconds exceed Int64 (a `touch -d 2300-01-01` took ubqd down before).
@Suite struct FileTimeTests {
    @Test func ordinaryTimesAreExact() {
        #expect(FileTime.nanoseconds(seconds: 1_795_000_000, nanoseconds: 123_456_789) == 1_795_000_000_123_456_789)
        #expect(FileTime.milliseconds(seconds: -1, nanoseconds: 500_000_000) == -500)
    }

    /// Back to `timespec`'s parts (what `futimens` takes): nanoseconds never negative.
    @Test func aCountSplitsIntoTimespecParts() {
        #expect(FileTime.parts(ofNanoseconds: 1_795_000_000_123_456_789) == (1_795_000_000, 123_456_789))
        #expect(FileTime.parts(ofNanoseconds: -152_492_276_500_000_001) == (-152_492_277, 499_999_999))
        #expect(FileTime.parts(ofNanoseconds: -1) == (-1, 999_999_999))
        let earliest = FileTime.parts(ofNanoseconds: .min)
        #expect(FileTime.nanoseconds(seconds: earliest.seconds, nanoseconds: earliest.nanoseconds) == .min)
    }

    @Test func timesBeyondInt64Saturate() {
        let year2400: Int64 = 13_569_465_600
        #expect(FileTime.nanoseconds(seconds: year2400, nanoseconds: 1) == .max)
        #expect(FileTime.nanoseconds(seconds: -year2400, nanoseconds: 0) == .min)
        #expect(FileTime.nanoseconds(seconds: Int64.max / 1_000_000_000, nanoseconds: 999_999_999) == .max)
        #expect(FileTime.milliseconds(seconds: .max, nanoseconds: 0) == .max)
        #expect(FileTime.milliseconds(seconds: .min, nanoseconds: 0) == .min)
    }
}
