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
}
