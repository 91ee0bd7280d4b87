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
        if caseInsensitive && diacriticInsensitive, let folded = LatinFolds.fold(string) { return folded }
        return unicodeFold(string, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive)
    }

    /// The definition above, step by step, through Foundation's normalization.
    static func unicodeFold(_ string: String, caseInsensitive: Bool, diacriticInsensitive: Bool) -> String {
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

/// `[cd]` folds of the Latin letters below U+0250 (Latin-1, Extended-A and -B), one scalar
/// at a time. The index folds every name and path it stores, and through Foundation's
/// normalization a name with one accented letter cost microseconds where ASCII costs next
/// to nothing: 100,000 files of which a tenth had "résumé" in their names spent a quarter
/// of the row builder's CPU before READY folding (0.22 s by `perf`).
///
/// Folding such a string scalar by scalar gives the same result as folding it whole: no
/// scalar of the range is a combining mark, the marks that decomposition brings are
/// removed, and what is left of one scalar cannot compose with the next (only a mark or a
/// Hangul jamo can be composed onto a letter). `FoldingTests` checks every scalar of the
/// range, and strings of them, against the definition.
enum LatinFolds {
    static let end: UInt32 = 0x250

    /// `folds[i]`: the fold of scalar `i`, for `i < end`.
    private static let folds: [String] = (0..<end).map { value in
        PredicateFolding.unicodeFold(String(Unicode.Scalar(value)!), caseInsensitive: true, diacriticInsensitive: true)
    }

    /// The `[cd]` fold of `string`, or nil if some scalar is at `end` or above.
    static func fold(_ string: String) -> String? {
        var result = ""
        result.reserveCapacity(string.utf8.count)
        for scalar in string.unicodeScalars {
            guard scalar.value < end else { return nil }
            if scalar.value < 0x80 {
                let byte = UInt8(scalar.value)
                result.unicodeScalars.append(Unicode.Scalar(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte))
            } else {
                result += folds[Int(scalar.value)]
            }
        }
        return result
    }
}

extension ComparisonOptions {
    /// Applies `[c]`/`[d]` to one operand. The word option does not fold.
    func fold(_ string: String) -> String {
        PredicateFolding.fold(string, caseInsensitive: contains(.caseInsensitive),
                              diacriticInsensitive: contains(.diacriticInsensitive))
    }
}
