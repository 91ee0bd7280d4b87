import APIModel
import Testing

/// Dates come from files (an archive's NSDate, a log line's time): any Double must format.
@Suite struct ISO8601Tests {
    @Test func anOrdinaryDateKeepsItsMicroseconds() {
        #expect(ISO8601.format(referenceSeconds: 1.5) == "2001-01-01T00:00:01.500000Z")
    }

    @Test(arguments: [
        (Double.nan, "0001-01-01T00:00:00.000000Z"), (-Double.infinity, "0001-01-01T00:00:00.000000Z"),
        (-1e300, "0001-01-01T00:00:00.000000Z"), (Double.infinity, "9999-12-31T23:59:59.000000Z"),
        (1e300, "9999-12-31T23:59:59.000000Z"), (Double(Int64.max) / 1000, "9999-12-31T23:59:59.000000Z"),
    ])
    func aTimeNoCalendarHoldsShowsAsTheNearestEnd(seconds: Double, shown: String) {
        #expect(ISO8601.format(referenceSeconds: seconds) == shown)
    }

    /// A file time in nanoseconds keeps its microseconds exactly, before 1970 too (floored,
    /// as a time is cut to the microsecond).
    @Test(arguments: [
        (Int64(1_557_032_705_123_456_789), "2019-05-05T05:05:05.123456Z"),
        (Int64(-152_492_276_500_000_001), "1965-03-03T01:02:03.499999Z"),
        (Int64.max, "2262-04-11T23:47:16.854775Z"), (Int64.min, "1677-09-21T00:12:43.145224Z"),
    ])
    func aFileTimeKeepsItsMicroseconds(nanoseconds: Int64, shown: String) {
        #expect(ISO8601.format(unixNanoseconds: nanoseconds) == shown)
    }
}
