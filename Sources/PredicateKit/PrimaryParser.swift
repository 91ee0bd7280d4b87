/// Operands: literals, `SELF`, key paths, variables, format arguments, aggregates,
/// function calls (`sum(x)`, `multiply:by:(5, 3)`, `FUNCTION`, `CAST`, `SUBQUERY`,
/// `TERNARY`), Spotlight's `*` and `$time.…`.
extension Parser {
    mutating func parsePrimaryExpression() throws(PredicateParseError) -> ExpressionNode {
        let token = current
        switch token.kind {
        case .number(let value): index += 1; return .constant(value)
        case .string(let text): index += 1; return .constant(.string(text))
        case .variable(let name):
            index += 1
            if name == "time", current.punctuation == ".", let time = try parseTimeExpression() { return .time(time) }
            return .variable(name)
        case .formatSpecifier(let letter): return try parseFormatArgument(letter)
        case .identifier(_, let escaped):
            if !escaped, let keyword = token.keyword, let keywordNode = try parseKeywordOperand(keyword) { return keywordNode }
            if next.punctuation == "(" || next.punctuation == ":" { return try parseFunctionCall() }
            return .keyPath(base: .evaluatedObject, components: try parseKeyComponents())
        case .punctuation("("):
            index += 1
            let inner = try parseExpression()
            try expect(")", expected: ["')'", "an operator"])
            return inner
        case .punctuation("{"): return try parseAggregate()
        case .punctuation("*"): index += 1; return .anyAttribute
        default:
            throw error("expected an expression, found \(token.describedForError)",
                        expected: ["a key path", "a string", "a number", "a variable", "'('", "'{'"])
        }
    }

    /// Keyword operands; nil when the word is not one (an ordinary key).
    private mutating func parseKeywordOperand(_ word: String) throws(PredicateParseError) -> ExpressionNode? {
        switch word {
        case "SELF": index += 1; return .evaluatedObject
        case "NULL", "NIL": index += 1; return .constant(.null)
        case "TRUE", "YES": index += 1; return .constant(.bool(true))
        case "FALSE", "NO": index += 1; return .constant(.bool(false))
        case "SUBQUERY": return try parseSubquery()
        case "FUNCTION": return try parseMethodCall()
        case "CAST": return try parseCast()
        case "TERNARY": return try parseTernary()
        case _ where Self.reservedWords.contains(word):
            throw error("'\(word)' is a reserved word; write #\(word) to use it as a key",
                        expected: ["a key path", "a string", "a number", "a variable", "'('", "'{'"])
        default: return nil
        }
    }

    private mutating func parseFormatArgument(_ letter: Character) throws(PredicateParseError) -> ExpressionNode {
        if letter == "K" { return .keyPath(base: .evaluatedObject, components: try parseKeyComponents()) }
        let argument = try nextArgument(for: letter)
        index += 1
        switch (letter, argument) {
        case ("d", .double(let value)), ("i", .double(let value)), ("u", .double(let value)), ("D", .double(let value)), ("U", .double(let value)):
            guard let integer = Int64(exactly: value.rounded(.towardZero)) else { throw error("'%\(letter)' argument out of range") }
            return .constant(.int(integer))
        case ("d", .bool(let flag)), ("i", .bool(let flag)), ("u", .bool(let flag)):
            return .constant(.int(flag ? 1 : 0))
        case ("f", .int(let value)), ("g", .int(let value)), ("e", .int(let value)):
            return .constant(.double(Double(value)))
        default:
            return Self.expressionForArgument(argument)
        }
    }

    /// Arrays become aggregates of constants so that the tree prints and parses back alike.
    static func expressionForArgument(_ value: PredicateValue) -> ExpressionNode {
        if case .array(let values) = value { return .aggregate(values.map(expressionForArgument)) }
        return .constant(value)
    }

    private mutating func parseAggregate() throws(PredicateParseError) -> ExpressionNode {
        try descend()
        defer { depth -= 1 }
        try expect("{")
        var elements: [ExpressionNode] = []
        if accept("}") { return .aggregate(elements) }
        repeat { elements.append(try parseExpression()) } while accept(",")
        try expect("}", expected: ["','", "'}'"])
        return .aggregate(elements)
    }

    mutating func parseArguments() throws(PredicateParseError) -> [ExpressionNode] {
        try expect("(")
        var arguments: [ExpressionNode] = []
        if accept(")") { return arguments }
        repeat { arguments.append(try parseExpression()) } while accept(",")
        try expect(")", expected: ["','", "')'"])
        return arguments
    }
}
