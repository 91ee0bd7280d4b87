/// Spotlight (MDQuery) query strings: `kMDItemFSName == "*.txt"cd`, `InRange(attr, a, b)`,
/// `$time.today(-1)`, `* == "x"`, combined with `&&`, `||`, `!` and parentheses.
///
/// Meaning in the shared tree: `==`/`!=` with a `*` wildcard in the string become (NOT)
/// LIKE; `c` and `d` are `[c]`/`[d]`; `w` (word based) matches from the start of any word,
/// as a prefix (`"foo"w` finds "a food b"). `InRange(a, x, y)` is `a BETWEEN {x, y}`.
extension Parser {
    mutating func parseWholeSpotlightQuery() throws(PredicateParseError) -> PredicateNode {
        let node = try parseSpotlightOr()
        guard case .end = current.kind else {
            throw error("unexpected \(current.describedForError) after a complete query", expected: ["&&", "||", "the end of the input"])
        }
        return node
    }

    private mutating func parseSpotlightOr() throws(PredicateParseError) -> PredicateNode {
        try descend()
        defer { depth -= 1 }
        var terms = [try parseSpotlightAnd()]
        while accept("||") { terms.append(try parseSpotlightAnd()) }
        return terms.count == 1 ? terms[0] : .or(terms)
    }

    private mutating func parseSpotlightAnd() throws(PredicateParseError) -> PredicateNode {
        var terms = [try parseSpotlightUnary()]
        while accept("&&") { terms.append(try parseSpotlightUnary()) }
        return terms.count == 1 ? terms[0] : .and(terms)
    }

    private mutating func parseSpotlightUnary() throws(PredicateParseError) -> PredicateNode {
        if accept("!") {
            try descend()
            defer { depth -= 1 }
            return .not(try parseSpotlightUnary())
        }
        if accept("(") {
            let inner = try parseSpotlightOr()
            try expect(")", expected: ["')'", "&&", "||"])
            return inner
        }
        if current.keyword == "INRANGE", next.punctuation == "(" {
            return try parseInRange()
        }
        return try parseSpotlightComparison()
    }

    private mutating func parseInRange() throws(PredicateParseError) -> PredicateNode {
        index += 2
        let attribute = try parseSpotlightAttribute()
        try expect(",")
        let low = try parseSpotlightValue().node
        try expect(",")
        let high = try parseSpotlightValue().node
        try expect(")")
        return .comparison(Comparison(quantifier: .direct, left: attribute, op: .between, options: [], right: .aggregate([low, high])))
    }

    private mutating func parseSpotlightAttribute() throws(PredicateParseError) -> ExpressionNode {
        if accept("*") { return .anyAttribute }
        guard case .identifier(let name, _) = current.kind else {
            throw error("expected an attribute name such as kMDItemFSName, or *", expected: ["an attribute name", "*"])
        }
        index += 1
        return .keyPath(name)
    }

    private static let spotlightOperators: [String: ComparisonOperator] = [
        "==": .equal, "=": .equal, "!=": .notEqual, "<": .lessThan, "<=": .lessThanOrEqual, ">": .greaterThan, ">=": .greaterThanOrEqual,
    ]

    private mutating func parseSpotlightComparison() throws(PredicateParseError) -> PredicateNode {
        let attribute = try parseSpotlightAttribute()
        guard let symbol = current.punctuation, let op = Self.spotlightOperators[symbol] else {
            throw error("expected a comparison operator after the attribute, found \(current.describedForError)",
                        expected: ["==", "!=", "<", ">", "<=", ">="])
        }
        index += 1
        let (value, options) = try parseSpotlightValue()
        return SpotlightComparison.make(attribute, op, value, options)
    }

    /// A string with its modifier letters written right after the closing quote, a number,
    /// or a `$time` expression.
    private mutating func parseSpotlightValue() throws(PredicateParseError) -> (node: ExpressionNode, options: ComparisonOptions) {
        let token = current
        switch token.kind {
        case .string(let text):
            index += 1
            return (.constant(.string(text)), try parseSpotlightModifiers(after: token))
        case .number(let value):
            index += 1
            return (.constant(value), [])
        case .punctuation("-"):
            index += 1
            guard case .number(let value) = current.kind, let number = value.number else { throw error("expected a number", expected: ["a number"]) }
            index += 1
            if case .int(let integer) = value { return (.constant(.int(-integer)), []) }
            return (.constant(.double(-number)), [])
        case .variable("time"):
            index += 1
            guard let time = try parseTimeExpression() else { throw error("expected a $time function", expected: ["now", "today", "this_week", "this_month", "this_year", "iso"]) }
            return (.time(time), [])
        default:
            throw error("expected a value, found \(token.describedForError)", expected: ["a quoted string", "a number", "$time.…"])
        }
    }

    private mutating func parseSpotlightModifiers(after string: Token) throws(PredicateParseError) -> ComparisonOptions {
        guard case .identifier(let letters, false) = current.kind, current.start == string.end else { return [] }
        var options: ComparisonOptions = []
        for letter in letters {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            case "w": options.insert(.wordBased)
            case "t": break  // tokenized: our word matching already works on words
            default: throw error("unknown modifier '\(letter)'", expected: ["c", "d", "w"])
            }
        }
        index += 1
        return options
    }
}

enum SpotlightComparison {
    static func make(_ attribute: ExpressionNode, _ op: ComparisonOperator, _ value: ExpressionNode,
                     _ options: ComparisonOptions) -> PredicateNode
    {
        guard case .constant(.string(let text)) = value, op == .equal || op == .notEqual,
            text.contains("*") || options.contains(.wordBased)
        else {
            return .comparison(Comparison(quantifier: .direct, left: attribute, op: op, options: options, right: value))
        }
        var pattern = likePattern(fromSpotlight: text)
        if options.contains(.wordBased), !pattern.hasSuffix("*") { pattern += "*" }
        let like = PredicateNode.comparison(Comparison(quantifier: .direct, left: attribute, op: .like, options: options,
                                                       right: .constant(.string(pattern))))
        return op == .equal ? like : .not(like)
    }

    /// Spotlight's only wildcard is `*`; a `?` is literal, so it is escaped for LIKE.
    static func likePattern(fromSpotlight text: String) -> String {
        var pattern = ""
        for character in text {
            if character == "?" { pattern += "\\?" } else { pattern.append(character) }
        }
        return pattern
    }
}
