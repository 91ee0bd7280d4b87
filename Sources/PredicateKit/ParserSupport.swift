/// Token cursor helpers shared by the predicate, expression and Spotlight parsers.
extension Parser {
    var current: Token { tokens[index] }

    var next: Token { tokens[min(index + 1, tokens.count - 1)] }

    mutating func accept(_ punctuation: String) -> Bool {
        guard current.punctuation == punctuation else { return false }
        index += 1
        return true
    }

    mutating func acceptKeyword(_ keyword: String) -> Bool {
        guard current.keyword == keyword else { return false }
        index += 1
        return true
    }

    mutating func expect(_ punctuation: String, expected: [String]? = nil) throws(PredicateParseError) {
        guard accept(punctuation) else {
            throw error("expected '\(punctuation)', found \(current.describedForError)", expected: expected ?? ["'\(punctuation)'"])
        }
    }

    mutating func expectKeyword(_ keyword: String) throws(PredicateParseError) {
        guard acceptKeyword(keyword) else {
            throw error("expected \(keyword), found \(current.describedForError)", expected: [keyword])
        }
    }

    func error(_ message: String, expected: [String] = []) -> PredicateParseError {
        source.error(message, atByte: current.start, expected: expected)
    }

    /// Counts one level of nesting; every recursive production calls it so that depth, not
    /// the stack, is what runs out first.
    mutating func descend() throws(PredicateParseError) {
        depth += 1
        steps += 1
        guard depth <= Self.maximumDepth else {
            throw error("nesting deeper than \(Self.maximumDepth) levels", expected: ["a flatter predicate"])
        }
        guard steps <= stepLimit else {
            throw error("too complex to parse: the parentheses are ambiguous too many times over", expected: ["fewer nested parentheses"])
        }
    }

    mutating func nextArgument(for specifier: Character) throws(PredicateParseError) -> PredicateValue {
        guard argumentIndex < arguments.count else {
            throw error("'%\(specifier)' has no matching argument (\(arguments.count) given)", expected: ["more arguments"])
        }
        defer { argumentIndex += 1 }
        return arguments[argumentIndex]
    }
}
