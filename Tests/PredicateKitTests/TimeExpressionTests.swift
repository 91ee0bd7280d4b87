import Testing
import PredicateKit

/// `$time` forms resolve against a pinned clock: 2026-01-15T12:00:00Z, a Thursday.
@Suite struct TimeExpressionTests {
    @Test(arguments: [
        ("$time.now", 790_171_200.0, 0), ("$time.now(-60)", 790_171_140, 0), ("$time.today", 790_128_000, 0),
        ("$time.yesterday", 790_041_600, 0), ("$time.today(1)", 790_214_400, 0), ("$time.this_week", 789_782_400, 0),
        ("$time.this_month", 788_918_400, 0), ("$time.this_month(-1)", 786_240_000, 0), ("$time.this_year", 788_918_400, 0),
        ("$time.this_year(-1)", 757_382_400, 0), ("$time.iso(2026-01-15T12:00:00Z)", 790_171_200, 0),
        ("$time.iso(2026-01-15T13:00:00+01:00)", 790_171_200, 0), ("$time.today", 790_124_400, 3600),
    ] as [(String, Double, Int)])
    func timeFormResolves(_ form: String, _ expected: Double, _ secondsFromGMT: Int) throws {
        let time = TimeContext(now: 790_171_200, secondsFromGMT: secondsFromGMT)
        let predicate = try Predicate(spotlightQuery: "d == \(form)")
        #expect(try predicate.evaluate(with: ["d": .date(expected)], time: time))
        #expect(try !predicate.evaluate(with: ["d": .date(expected + 1)], time: time))
        #expect(try Predicate(format: predicate.description) == predicate)
    }

    @Test func nowFunctionUsesThePinnedClock() throws {
        let predicate = try Predicate(format: "modified > now() - 3600")
        let time = TimeContext(now: 10_000)
        #expect(try predicate.evaluate(with: ["modified": .date(7000)], time: time))
        #expect(try !predicate.evaluate(with: ["modified": .date(6000)], time: time))
    }
}

extension TimeExpressionTests {
    /// Found by libFuzzer: arbitrary text inside `$time.iso(…)`, and a bare `$time.iso`,
    /// printed back unparseable.
    @Test(arguments: ["d == $time.iso(+*.txt\"cdw2024-x)", "d == $time.iso(2024-13-01)", "d == $time.iso()", "d == $time.iso", "se= $time.iso "])
    func malformedISODateIsAParseError(_ input: String) {
        #expect(throws: PredicateParseError.self) { try Predicate(format: input) }
    }

    @Test func isoDatePrintsQuoted() throws {
        let predicate = try Predicate(format: "d > $time.iso(2024-01-31T09:00:00Z)")
        #expect(predicate.description == "d > $time.iso(\"2024-01-31T09:00:00Z\")")
        #expect(try Predicate(format: predicate.description) == predicate)
    }
}
