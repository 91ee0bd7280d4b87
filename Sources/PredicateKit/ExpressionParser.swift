/// Expression level of the format-string grammar, loosest first: set operations
/// (`UNION INTERSECT MINUS`), `+ -`, `* /`, `**`, unary `-`, then postfix key paths and
/// `[index]`. Binary operators associate to the left.
extension Parser {
    mutating func parseExpression() throws(PredicateParseError) -> ExpressionNode {
        try descend()
        defer { depth -= 1 }
        var left = try parseAdditive()
        while let word = current.keyword, let operation = SetOperation(rawValue: word) {
            index += 1
            left = .setOperation(operation, left, try parseAdditive())
        }
        return left
    }

    private mutating func parseAdditive() throws(PredicateParseError) -> ExpressionNode {
        var left = try parseMultiplicative()
        while true {
            if accept("+") {
                left = .function("add:to:", [left, try parseMultiplicative()])
            } else if accept("-") {
                left = .function("from:subtract:", [left, try parseMultiplicative()])
            } else {
                return left
            }
        }
    }

    private mutating func parseMultiplicative() throws(PredicateParseError) -> ExpressionNode {
        var left = try parsePower()
        while true {
            if accept("*") {
                left = .function("multiply:by:", [left, try parsePower()])
            } else if accept("/") {
                left = .function("divide:by:", [left, try parsePower()])
            } else {
                return left
            }
        }
    }

    private mutating func parsePower() throws(PredicateParseError) -> ExpressionNode {
        var left = try parseUnary()
        while accept("**") { left = .function("raise:toPower:", [left, try parseUnary()]) }
        return left
    }

    /// A minus written right before a number literal is part of the literal, so
    /// `-9223372036854775808` stays an integer and negative constants print and parse back
    /// alike; `- 1` (with a space) is a negation, which the printer relies on.
    private mutating func parseUnary() throws(PredicateParseError) -> ExpressionNode {
        guard accept("-") else { return try parsePostfix() }
        if case .number(let value) = current.kind, current.start == tokens[index - 1].end {
            index += 1
            return try parsePostfix(from: .constant(Self.negate(value)))
        }
        try descend()
        defer { depth -= 1 }
        return .function("negate:", [try parseUnary()])
    }

    private static func negate(_ value: PredicateValue) -> PredicateValue {
        switch value {
        case .int(let number): .int(-number)
        case .double(let number) where number == 9_223_372_036_854_775_808: .int(.min)
        case .double(let number): .double(-number)
        default: value
        }
    }

    mutating func parsePostfix(from base: ExpressionNode? = nil) throws(PredicateParseError) -> ExpressionNode {
        var node: ExpressionNode
        if let base { node = base } else { node = try parsePrimaryExpression() }
        while true {
            if accept(".") {
                for component in try parseKeyComponents() { node = Self.appending(component, to: node) }
            } else if current.punctuation == "[" {
                index += 1
                node = .index(node, try parseIndexKind())
                try expect("]")
            } else {
                return node
            }
        }
    }

    static func appending(_ component: String, to node: ExpressionNode) -> ExpressionNode {
        switch node {
        case .evaluatedObject: .keyPath(base: .evaluatedObject, components: [component])
        case .keyPath(let base, let components): .keyPath(base: base, components: components + [component])
        default: .keyPath(base: node, components: [component])
        }
    }

    /// One key, or the several a `%K` argument such as `"a.b"` names.
    mutating func parseKeyComponents() throws(PredicateParseError) -> [String] {
        switch current.kind {
        case .identifier(let word, let escaped) where escaped || !Self.reservedWords.contains(current.keyword ?? ""):
            index += 1
            return [word]
        case .formatSpecifier("K"):
            let argument = try nextArgument(for: "K")
            guard case .string(let key) = argument else { throw error("'%K' needs a string argument", expected: ["a key path string"]) }
            index += 1
            return key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        default:
            throw error("expected a key, found \(current.describedForError)", expected: ["a key name", "@count", "@sum", "@avg", "@min", "@max"])
        }
    }

    private mutating func parseIndexKind() throws(PredicateParseError) -> IndexKind {
        switch current.keyword {
        case "FIRST": index += 1; return .first
        case "LAST": index += 1; return .last
        case "SIZE": index += 1; return .size
        default: return .at(try parseExpression())
        }
    }
}
