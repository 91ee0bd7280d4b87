/// Recursive-descent parser for NSPredicate format strings, predicate level.
///
/// Precedence, loosest first: `OR`/`||`, then `AND`/`&&`, then `NOT`/`!` (tightest), so
/// `a OR NOT b AND c` is `a OR ((NOT b) AND c)`. Nesting deeper than `maximumDepth` is a
/// parse error, so hostile input cannot overflow the stack.
struct Parser {
    static let maximumDepth = 200

    let source: SourceText
    var tokens: [Token]
    var index = 0
    var arguments: [PredicateValue]
    var argumentIndex = 0
    var depth = 0
    /// Recursive steps taken, against `stepLimit`: a `(` may open a predicate or an operand
    /// and the parser tries both, which nested inside TERNARY or SUBQUERY could otherwise
    /// take exponential time.
    var steps = 0
    var stepLimit: Int { 200 * tokens.count + 10_000 }

    init(_ text: String, arguments: [PredicateValue] = []) throws(PredicateParseError) {
        source = SourceText(text)
        tokens = try Lexer.tokenize(source)
        self.arguments = arguments
    }

    static let reservedWords: Set<String> = [
        "AND", "OR", "NOT", "IN", "LIKE", "MATCHES", "BEGINSWITH", "ENDSWITH", "CONTAINS", "BETWEEN",
        "ANY", "ALL", "NONE", "SOME", "NULL", "NIL", "SELF", "TRUE", "FALSE", "YES", "NO",
        "TRUEPREDICATE", "FALSEPREDICATE", "SUBQUERY", "FUNCTION", "CAST", "TERNARY",
        "UNION", "INTERSECT", "MINUS",
    ]

    /// Words that are keywords only inside `[…]`; still escaped when printing keys.
    static let indexWords: Set<String> = ["FIRST", "LAST", "SIZE"]

    mutating func parseWholePredicate() throws(PredicateParseError) -> PredicateNode {
        let node = try parsePredicate()
        guard case .end = current.kind else {
            throw error("unexpected \(current.describedForError) after a complete predicate",
                        expected: ["AND", "OR", "the end of the input"])
        }
        return node
    }

    mutating func parsePredicate() throws(PredicateParseError) -> PredicateNode {
        try descend()
        defer { depth -= 1 }
        var terms = [try parseConjunction()]
        while acceptKeyword("OR") || accept("||") { terms.append(try parseConjunction()) }
        return terms.count == 1 ? terms[0] : .or(terms)
    }

    private mutating func parseConjunction() throws(PredicateParseError) -> PredicateNode {
        var terms = [try parseNegation()]
        while acceptKeyword("AND") || accept("&&") { terms.append(try parseNegation()) }
        return terms.count == 1 ? terms[0] : .and(terms)
    }

    private mutating func parseNegation() throws(PredicateParseError) -> PredicateNode {
        guard acceptKeyword("NOT") || accept("!") else { return try parsePrimaryPredicate() }
        try descend()
        defer { depth -= 1 }
        return .not(try parseNegation())
    }

    /// `( predicate )`, `TRUEPREDICATE`, `FALSEPREDICATE` or a comparison. A `(` may open
    /// either a predicate or an arithmetic operand (`(a + 1) > 2`): try the comparison first,
    /// then the parenthesized predicate, and report whichever error got further.
    private mutating func parsePrimaryPredicate() throws(PredicateParseError) -> PredicateNode {
        if acceptKeyword("TRUEPREDICATE") { return .constant(true) }
        if acceptKeyword("FALSEPREDICATE") { return .constant(false) }
        guard current.punctuation == "(" else { return try parseComparison() }
        let saved = (index, argumentIndex, depth)
        let comparisonError: PredicateParseError
        do { return try parseComparison() } catch { comparisonError = error }
        (index, argumentIndex, depth) = saved
        do {
            try expect("(")
            let inner = try parsePredicate()
            try expect(")", expected: ["')'", "AND", "OR"])
            return inner
        } catch {
            throw error.position >= comparisonError.position ? error : comparisonError
        }
    }

    private mutating func parseComparison() throws(PredicateParseError) -> PredicateNode {
        let quantifier = parseQuantifier()
        let left = try parseExpression()
        guard let op = parseOperator() else {
            throw error("expected a comparison after the left operand, found \(current.describedForError)",
                        expected: ["a comparison operator (==, !=, <, >, <=, >=, BETWEEN, IN, LIKE, MATCHES, BEGINSWITH, ENDSWITH, CONTAINS)"])
        }
        let options = try parseOptions()
        let right = try parseExpression()
        return .comparison(Comparison(quantifier: quantifier, left: left, op: op, options: options, right: right))
    }

    private mutating func parseQuantifier() -> Quantifier {
        if acceptKeyword("ANY") || acceptKeyword("SOME") { return .any }
        if acceptKeyword("ALL") { return .all }
        if acceptKeyword("NONE") { return .none }
        return .direct
    }

    private static let symbolOperators: [String: ComparisonOperator] = [
        "=": .equal, "==": .equal, "!=": .notEqual, "<>": .notEqual, "<": .lessThan, "<=": .lessThanOrEqual,
        "=<": .lessThanOrEqual, ">": .greaterThan, ">=": .greaterThanOrEqual, "=>": .greaterThanOrEqual,
    ]

    private mutating func parseOperator() -> ComparisonOperator? {
        if let symbol = current.punctuation, let op = Self.symbolOperators[symbol] {
            index += 1
            return op
        }
        if let word = current.keyword, let op = ComparisonOperator(rawValue: word) {
            index += 1
            return op
        }
        return nil
    }

    /// `[c]`, `[d]`, `[cd]`; `n` and `l` (normalized, locale) are accepted and ignored as
    /// they change nothing here; `w` is the Spotlight word option.
    private mutating func parseOptions() throws(PredicateParseError) -> ComparisonOptions {
        guard current.punctuation == "[" else { return [] }
        index += 1
        guard case .identifier(let letters, false) = current.kind else {
            throw error("expected comparison options", expected: ["c", "d", "cd"])
        }
        var options: ComparisonOptions = []
        for letter in letters.lowercased() {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            case "w": options.insert(.wordBased)
            case "n", "l": break
            default: throw error("unknown comparison option '\(letter)'", expected: ["c", "d", "cd"])
            }
        }
        index += 1
        try expect("]")
        return options
    }
}
