import TestSupport
import Testing

@testable import PredicateKit

/// The Latin fast path of `[cd]` folding (`LatinFolds`) gives what the definition gives.
@Suite struct FoldingTests {
    @Test func everyScalarOfTheLatinRangeFoldsAsTheDefinitionSays() {
        for value in 0x80..<LatinFolds.end {
            let text = String(Unicode.Scalar(value)!)
            #expect(LatinFolds.fold(text) == Self.definition(text), "U+\(String(value, radix: 16, uppercase: true))")
        }
    }

    /// Scalar by scalar equals whole: random strings of the range, ASCII among them.
    @Test func stringsOfTheRangeFoldAsWholes() {
        var random = SplitMix64(seed: 2026)
        let latin = Int(LatinFolds.end) - 0x80
        for _ in 0..<3_000 {
            let scalars = (0...random.below(8)).map { _ in
                Unicode.Scalar(UInt32(random.below(2) == 0 ? 0x20 + random.below(0x5F) : 0x80 + random.below(latin)))!
            }
            let text = String(String.UnicodeScalarView(scalars))
            #expect(LatinFolds.fold(text) == Self.definition(text), "\(text.debugDescription)")
        }
    }

    @Test func examples() {
        #expect(PredicateFolding.fold("Résumé Ærø", caseInsensitive: true, diacriticInsensitive: true) == "resume ærø")
        #expect(PredicateFolding.fold("İstanbul", caseInsensitive: true, diacriticInsensitive: true) == "istanbul")
        #expect(LatinFolds.fold("e\u{301}") == nil, "a combining mark leaves the range: the definition decides")
        #expect(PredicateFolding.fold("e\u{301}", caseInsensitive: true, diacriticInsensitive: true) == "e")
    }

    private static func definition(_ text: String) -> String {
        PredicateFolding.unicodeFold(text, caseInsensitive: true, diacriticInsensitive: true)
    }
}
