import Foundation

/// Case and diacritic folding for `[c]`, `[d]` and `[cd]`. The metadata index stores
/// `fold(x, caseInsensitive: true, diacriticInsensitive: true)` in shadow columns, and the
/// SQL compiler folds constants with the same function, so both sides agree by
/// construction.
///
/// Definition: canonical decomposition (NFD); with `caseInsensitive`, each scalar's full
/// lowercase mapping, decomposed again; with `diacriticInsensitive`, every combining mark
/// (general category Mn, Mc, Me) removed; then canonical composition (NFC).
///
/// Why this shape: each step maps scalars independently, so `[cd]`-equality is implied by
/// `[c]`-equality and by `[d]`-equality. That lets the compiler filter `[c]` or `[d]`
/// alone on the `[cd]` shadow column as a superset and refine in memory.
public enum PredicateFolding {
    public static func fold(_ string: String, caseInsensitive: Bool, diacriticInsensitive: Bool) -> String {
        guard caseInsensitive || diacriticInsensitive else { return string }
        if string.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII has no marks and no decomposition: only the case mapping can apply.
            return caseInsensitive ? asciiLowercased(string) : string
        }
        var scalars = Array(string.decomposedStringWithCanonicalMapping.unicodeScalars)
        if caseInsensitive {
            let lowered = String(String.UnicodeScalarView(scalars.flatMap { $0.properties.lowercaseMapping.unicodeScalars }))
            scalars = Array(lowered.decomposedStringWithCanonicalMapping.unicodeScalars)
        }
        if diacriticInsensitive {
            scalars.removeAll { isCombiningMark($0) }
        }
        return String(String.UnicodeScalarView(scalars)).precomposedStringWithCanonicalMapping
    }

    static func isCombiningMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    private static func asciiLowercased(_ string: String) -> String {
        guard string.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return string }
        return String(decoding: string.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}

extension ComparisonOptions {
    /// Applies `[c]`/`[d]` to one operand. The word option does not fold.
    func fold(_ string: String) -> String {
        PredicateFolding.fold(string, caseInsensitive: contains(.caseInsensitive),
                              diacriticInsensitive: contains(.diacriticInsensitive))
    }
}
