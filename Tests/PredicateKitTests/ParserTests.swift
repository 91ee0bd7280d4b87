import Testing
import PredicateKit

/// Grammar details beyond the fixture: precedence, literals, arguments, errors, depth.
@Suite struct ParserTests {
    @Test(arguments: [
        ("a == 1 OR b == 2 AND c == 3", "a == 1 OR b == 2 AND c == 3", "a == 1 OR (b == 2 AND c == 3)"),
        ("NOT a == 1 AND b == 2", "NOT a == 1 AND b == 2", "(NOT a == 1) AND b == 2"),
        ("a = 1 && b => 2 || !c =< 3", "a == 1 AND b >= 2 OR NOT c <= 3", "(a == 1 AND b >= 2) OR NOT c <= 3"),
        ("x <> 2", "x != 2", "x != 2"),
        ("1 + 2 * 3 ** 2 == x", "1 + 2 * 3 ** 2 == x", "1 + (2 * (3 ** 2)) == x"),
        ("(1 + 2) * 3 == x", "(1 + 2) * 3 == x", "(1 + 2) * 3 == x"),
        ("10 - (4 - 3) == x", "10 - (4 - 3) == x", "10 - (4 - 3) == x"),
        ("-x > -2", "-x > -2", "-(x) > -2"),
    ])
    func precedenceIsNotThenAndThenOr(_ input: String, _ canonical: String, _ parenthesized: String) throws {
        let predicate = try Predicate(format: input)
        #expect(predicate.description == canonical)
        #expect(try Predicate(format: parenthesized) == predicate)
    }

    @Test(arguments: [
        ("x == 0x1F", "x == 31"), ("x == 0o17", "x == 15"), ("x == 0b101", "x == 5"), ("x == 1e3", "x == 1000.0"),
        ("x == 9223372036854775807", "x == 9223372036854775807"), ("x == -9223372036854775808", "x == -9223372036854775808"),
        ("x == 'a\\tb\\u00e9'", "x == \"a\\tbé\""), ("x == \"q\\\"uote\"", "x == \"q\\\"uote\""),
        ("#and == #SELF", "#and == #SELF"), ("x[size] == 2", "x[SIZE] == 2"), ("sum({1, 2}) == 3", "sum({1, 2}) == 3"),
        ("multiply:by:(5, 3) == 15", "5 * 3 == 15"), ("now() > CAST(0, 'NSDate')", "now() > CAST(0, \"NSDate\")"),
        ("ANY list.@count > 1", "ANY list.@count > 1"), ("$x.name == 'a'", "$x.name == \"a\""),
        ("TERNARY(a == 1, 'x', 'y') == 'x'", "TERNARY(a == 1, \"x\", \"y\") == \"x\""),
        ("SUBQUERY(items, $i, $i.size > 2).@count > 0", "SUBQUERY(items, $i, $i.size > 2).@count > 0"),
    ])
    func literalsAndFormsPrintCanonically(_ input: String, _ canonical: String) throws {
        let predicate = try Predicate(format: input)
        #expect(predicate.description == canonical)
        #expect(try Predicate(format: canonical) == predicate)
    }

    @Test func formatArgumentsAreConsumedInOrder() throws {
        let predicate = try Predicate(format: "%K == %@ AND size > %d AND ratio < %f AND tag IN %@",
                                      arguments: ["kMDItemFSName", "a.txt", 10, 0.5, ["x", "y"]])
        #expect(predicate.description == "kMDItemFSName == \"a.txt\" AND size > 10 AND ratio < 0.5 AND tag IN {\"x\", \"y\"}")
        #expect(try predicate.evaluate(with: ["kMDItemFSName": "a.txt", "size": 11, "ratio": 0.25, "tag": "y"]))
    }

    @Test func quotedSpecifierIsALiteral() throws {
        #expect(try Predicate(format: "x == '%@'", arguments: []).description == "x == \"%@\"")
    }

    @Test(arguments: [
        ("name ==", 7, "an expression"), ("(a == 1", 7, "')'"), ("a == 'open", 5, "a closing '"),
        ("a === 1", 4, "an expression"), ("a == 1 b", 7, "AND"), ("a ==[x] 1", 5, "cd"), ("%@ == 1", 0, "more arguments"),
        ("a == 0x", 5, "base-16 digits"), ("nosuch(1) == 1", 0, "one of"), ("a == 1 AND", 10, "an expression"),
    ])
    func parseErrorsSayWhereAndWhatWasExpected(_ input: String, _ position: Int, _ expectedFragment: String) {
        #expect { try Predicate(format: input) } throws: { error in
            guard let error = error as? PredicateParseError else { return false }
            return error.position == position && (error.message + " " + error.expected.joined(separator: " ")).contains(expectedFragment)
        }
    }

    @Test func renderedErrorPutsACaretUnderThePosition() {
        do {
            _ = try Predicate(format: "size > 3 AND name ==")
            Issue.record("expected a parse error")
        } catch {
            let lines = error.rendered(source: "size > 3 AND name ==").split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines[1] == "                    ^")
            #expect(lines.last?.hasPrefix("expected a key path") == true)
        }
    }

    @Test(arguments: [10_000, 100_000])
    func deepNestingIsAParseErrorNotACrash(_ depth: Int) {
        let parentheses = String(repeating: "(", count: depth) + "a == 1" + String(repeating: ")", count: depth)
        let negations = String(repeating: "NOT ", count: depth) + "a == 1"
        let aggregates = "x IN " + String(repeating: "{", count: depth) + String(repeating: "}", count: depth)
        let minus = "x == " + String(repeating: "-(", count: depth) + "1" + String(repeating: ")", count: depth)
        for input in [parentheses, negations, aggregates, minus] {
            #expect { try Predicate(format: input) } throws: { ($0 as? PredicateParseError)?.message.contains("nesting") == true }
        }
    }

    @Test func moderateNestingParses() throws {
        let input = String(repeating: "(", count: 50) + "a == 1" + String(repeating: ")", count: 50)
        #expect(try Predicate(format: input).description == "a == 1")
    }
}

extension ParserTests {
    @Test func keyNamedLikeAnIndexWordIsEscapedInsideBrackets() throws {
        let predicate = try Predicate(format: "list[#size] == 1 AND size == 2")
        #expect(predicate.description == "list[#size] == 1 AND size == 2")
        #expect(try Predicate(format: predicate.description) == predicate)
    }
}

extension ParserTests {
    /// Found by libFuzzer: `#3…` is a key starting with a digit; it must print with `#`.
    @Test(arguments: ["x == #3abc", "#1 == 2", "1 + 2 + 3 * 9 == #3\u{FFFD}\u{FFFD}0"])
    func keyStartingWithADigitPrintsEscaped(_ input: String) throws {
        let predicate = try Predicate(format: input)
        #expect(try Predicate(format: predicate.description) == predicate)
    }
}

extension ParserTests {
    /// Found by libFuzzer: nested negations printed with parentheses nested deeper than the
    /// input, so the canonical form of a deep but valid input exceeded the depth limit.
    @Test func deepNegationPrintsNoDeeperThanItParsed() throws {
        let input = "9 == a - " + String(repeating: "-", count: 150) + "a"
        let predicate = try Predicate(format: input)
        #expect(try Predicate(format: predicate.description) == predicate)
        #expect(try Predicate(format: "x == --a").description == "x == --a")
    }
}

extension ParserTests {
    /// Found by libFuzzer (a 10 s timeout): each `(` inside TERNARY could be tried as an operand
    /// and as a predicate, nested, so parsing took exponential time. Now a step budget stops it.
    @Test(arguments: [
        "KCgoKCgoKCgocygoVEVSTkFSWSgoKCgoKNjY2NjY2NjY2NjY2C0tLS0tLS0tLS0oKFRFUk5BUlkoKCgoKCjY2NjY2NjY2NjY2NgtLS0tLS0wLygoKChzKChURVJOQVJZKCgoKCgo2NjY2NjYTk8tLS0tLS0tLS0tLTAvLS0tLS0tLS0tRi0tLSgoVEVSTkFSWSgoKCgoKNjY2NjY2NjY2NjY2C0tLS0tLTAvKCgoKHMoKFRFUk5BUlkoKCgoKCjY2NjY2NhOTy0tLS0tLS0tLS0tMC8tLS0tLS0tLS1GLS0tLdgtJHRpbWUudG9kYTw9LTEpLS1GLS3Y2NjY2NjY2NjY2Fopzs4qzs48PSgoKCg=",
        "x == TERNARY(" + String(repeating: "((TERNARY((((", count: 12) + "a",
    ])
    func ambiguousParenthesesCannotMakeParsingExponential(_ encoded: String) {
        let input = encoded.hasPrefix("x == ") ? encoded : String(decoding: Self.base64Decoded(encoded), as: UTF8.self)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            _ = try? Predicate(format: input)
            _ = try? Predicate(query: input)
        }
        #expect(elapsed < .seconds(5), "parsing took \(elapsed)")
    }

    static func base64Decoded(_ text: String) -> [UInt8] {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var bits = 0, count = 0, bytes: [UInt8] = []
        for byte in text.utf8 {
            guard let value = alphabet.firstIndex(of: byte) else { continue }
            bits = (bits << 6) | value
            count += 6
            if count >= 8 {
                count -= 8
                bytes.append(UInt8((bits >> count) & 0xFF))
            }
        }
        return bytes
    }
}

extension ParserTests {
    /// Found by libFuzzer: a negation printed right before a number merged into a negative
    /// literal (`- -0[FIRST]` lost a negation).
    @Test(arguments: ["x == ---0[FIRST]", "x == - 1", "x == --1", "x == -(1 + 2)", "x == 2 - -0 - - 3", "x == -1[FIRST]", "x == -2 ** 2"])
    func negationBeforeANumberSurvivesPrinting(_ input: String) throws {
        let predicate = try Predicate(format: input)
        let reparsed = try Predicate(format: predicate.description)
        #expect(reparsed == predicate, "\(predicate.description)")
        #expect(reparsed.description == predicate.description)
    }
}
