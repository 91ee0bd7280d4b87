import Testing
import PredicateKit

/// Every case of the shared NSPredicate fixture gives its expected result.
@Suite struct FixtureTests {
    @Test func fixtureFileIsFound() {
        #expect(FixtureCase.all.count >= 300, "cases.jsonl not found under \(FixtureCase.fixturesDirectory.path)")
    }

    @Test(arguments: FixtureCase.all)
    func fixtureCaseGivesExpectedResult(_ fixture: FixtureCase) {
        let outcome = Self.run(fixture)
        #expect(outcome == fixture.expected, "format: \(fixture.format) object: \(fixture.object)")
    }

    @Test(arguments: FixtureCase.all.filter { $0.expected != .parseError })
    func canonicalFormParsesBackToTheSameTree(_ fixture: FixtureCase) throws {
        let predicate = try Predicate(format: fixture.format)
        let reparsed = try Predicate(format: predicate.description)
        #expect(reparsed == predicate, "canonical: \(predicate.description)")
        #expect(reparsed.description == predicate.description)
    }

    @Test(arguments: FixtureCase.all)
    func libraryJSONReaderFollowsTheFixtureConvention(_ fixture: FixtureCase) throws {
        guard case .dictionary(let row) = try PredicateJSON.value(fromJSON: fixture.line) else {
            Issue.record("the line is not a JSON object")
            return
        }
        // Foundation's JSONSerialization on Linux rounds some doubles in the last digits
        // (2.9129506302439405 → 2.91295063024394): compare doubles with a tolerance.
        #expect(Self.nearlyEqual(row["object"] ?? .null, fixture.object), "\(row["object"] ?? .null) vs \(fixture.object)")
    }

    static func nearlyEqual(_ a: PredicateValue, _ b: PredicateValue) -> Bool {
        switch (a, b) {
        case (.double(let x), .double(let y)): return abs(x - y) <= 1e-12 * max(abs(x), abs(y), 1)
        case (.array(let x), .array(let y)), (.set(let x), .set(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { nearlyEqual($0, $1) }
        case (.dictionary(let x), .dictionary(let y)):
            return x.keys.sorted() == y.keys.sorted() && x.allSatisfy { key, value in nearlyEqual(value, y[key] ?? .null) }
        default: return a == b
        }
    }

    static func run(_ fixture: FixtureCase) -> FixtureCase.Expected {
        let predicate: Predicate
        do { predicate = try Predicate(format: fixture.format) } catch { return .parseError }
        do {
            return .result(try predicate.evaluate(with: fixture.object, variables: fixture.variables))
        } catch {
            return .evaluationError
        }
    }
}

extension FixtureCase.Expected: CustomStringConvertible {
    var description: String {
        switch self {
        case .result(let value): "\(value)"
        case .parseError: "PARSE_ERROR"
        case .evaluationError: "EVAL_ERROR"
        }
    }
}
