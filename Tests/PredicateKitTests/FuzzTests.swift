import Testing
import PredicateKit
import TestSupport

/// Property-based fuzzing: seeded random and mutated predicates must never crash or hang,
/// and printing must be a fixed point of parsing (parse ∘ print is stable).
@Suite struct FuzzTests {
    static let iterations = 20_000

    @Test func mutatedAndRandomPredicatesNeverCrashAndPrintStably() throws {
        var generator = SplitMix64(seed: 0x5EED_1234)
        let seeds = FixtureCase.all.map(\.format) + SpotlightQueryTests.cases.map(\.query) + SQLGoldenTests.goldens.map(\.predicate)
        try #require(!seeds.isEmpty)
        var parsed = 0
        for iteration in 0..<Self.iterations {
            let input = iteration.isMultiple(of: 4)
                ? PredicateMutator.randomTokens(using: &generator)
                : PredicateMutator.mutate(seeds[Int(generator.next() % UInt64(seeds.count))], seeds: seeds, using: &generator)
            if try Self.exercise(input) { parsed += 1 }
        }
        // A mutator that only ever produced garbage would test nothing.
        #expect(parsed > Self.iterations / 10, "only \(parsed) of \(Self.iterations) inputs parsed")
    }

    /// Parses with every entry point; on success checks the print fixed point and runs the
    /// evaluator and the compiler, which may throw but must not crash.
    static func exercise(_ input: String) throws -> Bool {
        _ = try? Predicate(spotlightQuery: input)
        _ = try? Predicate(query: input)
        guard let predicate = try? Predicate(format: input) else { return false }
        let printed = predicate.description
        let reparsed: Predicate
        do { reparsed = try Predicate(format: printed) } catch {
            Issue.record("canonical form does not parse: \(printed) (from \(input)): \(error)")
            return true
        }
        #expect(reparsed == predicate, "tree changed through \(printed) (from \(input))")
        #expect(reparsed.description == printed, "print is not stable for \(input)")
        for object in objects { _ = try? predicate.evaluate(with: object, variables: variables, time: IndexSchema.time) }
        _ = try? predicate.compile(for: IndexSchema.schema, time: IndexSchema.time)
        _ = try? predicate.validate(for: .metadataQuery(attributes: ["kMDItemFSName"]))
        _ = try? predicate.validate(for: .cloudKit(fields: ["title": .string]))
        return true
    }

    static let objects: [PredicateValue] = [
        nil, "abc", 42, [1, 2, "x"], EvaluationTests.item,
        ["Record1": ["Name": "John", "Age": 34, "Children": ["Kid1", "Kid2"]], "kMDItemFSName": "a.txt", "kMDItemFSSize": 10],
    ]
    static let variables: [String: PredicateValue] = ["x": 1, "k": "a", "arr": [1, 2]]
}

enum PredicateMutator {
    static let fragments = [
        "(", ")", "{", "}", "[", "]", "[cd]", "[c]", ",", ".", " AND ", " OR ", " NOT ", "!", "&&", "||", "==", "!=", "<", "<=",
        ">", ">=", "=<", "=>", "<>", " BETWEEN ", " IN ", " LIKE ", " MATCHES ", " CONTAINS ", " BEGINSWITH ", " ENDSWITH ",
        "ANY ", "ALL ", "NONE ", "SOME ", "SELF", "nil", "YES", "NO", "TRUEPREDICATE", "FALSEPREDICATE", "'a*'", "\"x\"", "'",
        "\"", "\\", "\\u00e9", "1", "-", "+", "*", "/", "**", "0x1F", "1e3", "2.5", "$x", "$time.today(-1)", "%@", "%K", "#and",
        "@count", "[FIRST]", "[SIZE]", "[1]", "SUBQUERY(", "FUNCTION(", "CAST(", "sum(", "now()", "name", "kMDItemFSName",
        " UNION ", "é", "😀", "\t", "InRange(", "\"*.txt\"cd", "*", ":",
    ]

    static func randomTokens(using generator: inout SplitMix64) -> String {
        (0..<Int(generator.next() % 12 + 1)).map { _ in fragments[Int(generator.next() % UInt64(fragments.count))] }.joined(separator: " ")
    }

    static func mutate(_ seed: String, seeds: [String], using generator: inout SplitMix64) -> String {
        var characters = Array(seed)
        for _ in 0..<Int(generator.next() % 3 + 1) {
            let position = characters.isEmpty ? 0 : Int(generator.next() % UInt64(characters.count + 1))
            switch generator.next() % 5 {
            case 0 where !characters.isEmpty:
                let end = min(characters.count, position + Int(generator.next() % 4 + 1))
                characters.removeSubrange(min(position, characters.count)..<end)
            case 1: characters.insert(contentsOf: fragments[Int(generator.next() % UInt64(fragments.count))], at: position)
            case 2:
                let other = seeds[Int(generator.next() % UInt64(seeds.count))]
                characters = Array("(" + String(characters) + (generator.next() % 2 == 0 ? ") AND (" : ") OR (") + other + ")")
            case 3: characters = Array(String(repeating: "(", count: 3) + String(characters) + String(repeating: ")", count: 3))
            default:
                if characters.count > 1 { characters.swapAt(position % characters.count, Int(generator.next() % UInt64(characters.count))) }
            }
        }
        return String(characters)
    }
}
