// Rejects the patterns git silently never matches, so a user learns about the typo instead
// of wondering why a file is still synced.

enum PatternValidation {
    /// The problem with `pattern`, or nil if git can match it.
    static func problem(in pattern: [UInt8]) -> String? {
        var i = 0
        while i < pattern.count {
            switch pattern[i] {
            case Ascii.backslash:
                if i + 1 >= pattern.count { return "ends with a lone '\\'; remove it or escape it as \"\\\\\"" }
                i += 2
            case Ascii.openBracket:
                switch closeOfBracket(pattern, from: i) {
                case .success(let end): i = end + 1
                case .failure(let message): return message
                }
            default:
                i += 1
            }
        }
        return nil
    }

    private enum Scan {
        case success(Int)
        case failure(String)
    }

    /// Index of the `]` that closes the bracket expression opening at `open`.
    private static func closeOfBracket(_ pattern: [UInt8], from open: Int) -> Scan {
        let unclosed = Scan.failure("has a '[' that is never closed; write \"\\[\" for a literal '['")
        var i = open + 1
        if i < pattern.count, pattern[i] == Ascii.exclamation || pattern[i] == Ascii.caret { i += 1 }
        var first = true
        while i < pattern.count {
            let byte = pattern[i]
            if byte == Ascii.closeBracket && !first { return .success(i) }
            first = false
            if byte == Ascii.backslash {
                i += 2
                continue
            }
            if byte == Ascii.openBracket, i + 1 < pattern.count, pattern[i + 1] == Ascii.colon,
               let end = pattern[(i + 2)...].firstIndex(of: Ascii.closeBracket), pattern[end - 1] == Ascii.colon, end - 1 >= i + 2 {
                let name = String(decoding: pattern[(i + 2)..<(end - 1)], as: UTF8.self)
                if Ascii.isMember(0, ofClass: name) == nil {
                    return .failure("uses the unknown character class \"[:\(name):]\"; known: alnum alpha blank cntrl digit graph lower print punct space upper xdigit")
                }
                i = end + 1
                continue
            }
            i += 1
        }
        return unclosed
    }
}
