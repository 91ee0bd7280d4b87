import Testing
import PredicateKit

/// Spotlight query strings parse into the shared tree, and `Predicate(query:)` picks the
/// right syntax.
@Suite struct SpotlightQueryTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var query: String
        var canonical: String
        var testDescription: String { query }
    }

    static let cases: [Case] = [
        Case(query: "kMDItemFSName == \"*.txt\"cd", canonical: "kMDItemFSName LIKE[cd] \"*.txt\""),
        Case(query: "kMDItemFSName == \"report\"c", canonical: "kMDItemFSName ==[c] \"report\""),
        Case(query: "kMDItemFSName != \"*~\"", canonical: "NOT kMDItemFSName LIKE \"*~\""),
        Case(query: "kMDItemDisplayName == \"foo\"wc", canonical: "kMDItemDisplayName LIKE[cw] \"foo*\""),
        Case(query: "InRange(kMDItemFSSize, 10, 2000)", canonical: "kMDItemFSSize BETWEEN {10, 2000}"),
        Case(query: "kMDItemFSContentChangeDate >= $time.today(-1)", canonical: "kMDItemFSContentChangeDate >= $time.today(-1)"),
        Case(query: "kMDItemFSCreationDate > $time.this_month", canonical: "kMDItemFSCreationDate > $time.this_month"),
        Case(query: "* == \"paris\"cd", canonical: "* ==[cd] \"paris\""),
        Case(query: "(kMDItemFSSize > 5 || kMDItemFSSize < -1) && !(kMDItemFSName == \"a?b\")",
             canonical: "(kMDItemFSSize > 5 OR kMDItemFSSize < -1) AND NOT kMDItemFSName == \"a?b\""),
        Case(query: "kMDItemFSName == \"what?*\"", canonical: "kMDItemFSName LIKE \"what\\\\?*\""),
    ]

    @Test(arguments: cases)
    func spotlightQueryParsesToTheExpectedTree(_ testCase: Case) throws {
        let predicate = try Predicate(spotlightQuery: testCase.query)
        #expect(predicate.description == testCase.canonical)
        #expect(try Predicate(format: predicate.description) == predicate)
        #expect(try Predicate(query: testCase.query) == predicate)
    }

    @Test func wildcardMatchesLikeSpotlight() throws {
        let predicate = try Predicate(query: "kMDItemFSName == \"*.TXT\"c")
        #expect(try predicate.evaluate(with: ["kMDItemFSName": "notes.txt"]))
        #expect(try !predicate.evaluate(with: ["kMDItemFSName": "notes.md"]))
    }

    @Test func wordModifierMatchesAtWordStarts() throws {
        let predicate = try Predicate(spotlightQuery: "kMDItemDisplayName == \"plan\"wc")
        #expect(try predicate.evaluate(with: ["kMDItemDisplayName": "Holiday Plans 2026"]))
        #expect(try !predicate.evaluate(with: ["kMDItemDisplayName": "Explanation"]))
    }

    @Test func timeTodayResolvesAgainstThePinnedClock() throws {
        let predicate = try Predicate(spotlightQuery: "kMDItemFSContentChangeDate >= $time.today(-1)")
        #expect(try predicate.evaluate(with: ["kMDItemFSContentChangeDate": .date(790_041_600)], time: IndexSchema.time))
        #expect(try !predicate.evaluate(with: ["kMDItemFSContentChangeDate": .date(790_041_599)], time: IndexSchema.time))
    }

    @Test(arguments: [
        ("kMDItemFSName == 'a.txt'", "kMDItemFSName == \"a.txt\""),
        ("name BEGINSWITH[c] 'x' AND size > 3", "name BEGINSWITH[c] \"x\" AND size > 3"),
        ("kMDItemFSName == \"*.txt\"", "kMDItemFSName LIKE \"*.txt\""),
        ("kMDItemFSName LIKE '*.txt'", "kMDItemFSName LIKE \"*.txt\""),
    ])
    func queryChoosesTheSyntax(_ query: String, _ canonical: String) throws {
        #expect(try Predicate(query: query).description == canonical)
    }

    @Test func queryErrorComesFromTheSyntaxThatGotFurther() {
        #expect { try Predicate(query: "kMDItemFSName == \"x\"cd && kMDItemFSSize >") } throws: { error in
            (error as? PredicateParseError)?.position == 41
        }
    }
}
