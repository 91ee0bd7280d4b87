/// Calls: `name(args)`, the selector form `multiply:by:(5, 3)`, `FUNCTION(receiver,
/// 'selector', args…)`, `CAST(x, 'NSDate')`, `SUBQUERY(collection, $x, predicate)`,
/// `TERNARY(predicate, a, b)` and Spotlight's `$time.today(-1)`.
extension Parser {
    mutating func parseFunctionCall() throws(PredicateParseError) -> ExpressionNode {
        let start = current
        guard case .identifier(let name, _) = start.kind else { throw error("expected a function name") }
        index += 1
        var selector = name
        if current.punctuation == ":" {
            selector += ":"
            index += 1
            while case .identifier(let part, _) = current.kind, next.punctuation == ":" {
                selector += part + ":"
                index += 2
            }
        }
        let arguments = try parseArguments()
        if !selector.hasSuffix(":"), !arguments.isEmpty { selector += ":" }
        guard let arity = BuiltinFunctions.arity[selector] else {
            throw source.error("unknown function '\(selector)'", atByte: start.start,
                               expected: ["one of " + BuiltinFunctions.arity.keys.sorted().joined(separator: " ")])
        }
        guard arity == arguments.count else {
            throw source.error("'\(selector)' takes \(arity) argument(s), not \(arguments.count)", atByte: start.start,
                               expected: ["\(arity) argument(s)"])
        }
        return .function(selector, arguments)
    }

    mutating func parseMethodCall() throws(PredicateParseError) -> ExpressionNode {
        index += 1
        let start = current
        let arguments = try parseArguments()
        guard arguments.count >= 2, case .constant(.string(let selector)) = arguments[1] else {
            throw source.error("FUNCTION needs a receiver and a selector string", atByte: start.start,
                               expected: ["FUNCTION(receiver, 'selector', arguments…)"])
        }
        return .method(receiver: arguments[0], selector: selector, arguments: Array(arguments.dropFirst(2)))
    }

    /// `CAST` of a literal to NSDate or NSNumber is folded into a constant: that is how a
    /// date constant prints (`CAST(728438400, "NSDate")`), so it must parse back to one.
    mutating func parseCast() throws(PredicateParseError) -> ExpressionNode {
        index += 1
        let start = current
        let arguments = try parseArguments()
        guard arguments.count == 2, case .constant(.string(let type)) = arguments[1] else {
            throw source.error("CAST needs a value and a class name string", atByte: start.start,
                               expected: ["CAST(value, 'NSDate')", "CAST(value, 'NSNumber')", "CAST(value, 'NSString')"])
        }
        if case .constant(let value) = arguments[0], let folded = try? Casting.cast(value, to: type) {
            if case .date = folded { return .constant(folded) }
        }
        return .function("castObject:toType:", arguments)
    }

    mutating func parseSubquery() throws(PredicateParseError) -> ExpressionNode {
        index += 1
        try descend()
        defer { depth -= 1 }
        try expect("(")
        let collection = try parseExpression()
        try expect(",")
        guard case .variable(let variable) = current.kind else {
            throw error("SUBQUERY needs a variable such as $x as its second argument", expected: ["a variable"])
        }
        index += 1
        try expect(",")
        let predicate = try parsePredicate()
        try expect(")", expected: ["')'", "AND", "OR"])
        return .subquery(collection: collection, variable: variable, predicate: predicate)
    }

    mutating func parseTernary() throws(PredicateParseError) -> ExpressionNode {
        index += 1
        try descend()
        defer { depth -= 1 }
        try expect("(")
        let condition = try parsePredicate()
        try expect(",")
        let whenTrue = try parseExpression()
        try expect(",")
        let whenFalse = try parseExpression()
        try expect(")")
        return .ternary(condition, whenTrue, whenFalse)
    }

    /// `$time.now`, `$time.today(-1)`, `$time.iso(2024-01-01T00:00:00Z)`… Returns nil (and
    /// consumes nothing) when the word after `$time.` is not a time function: then `$time`
    /// is an ordinary variable with a key path.
    mutating func parseTimeExpression() throws(PredicateParseError) -> TimeExpression? {
        guard case .identifier(let name, false) = next.kind, let kind = TimeExpression.Kind(rawValue: name) else { return nil }
        index += 2
        if kind == .iso {
            // Its date is not optional: a bare `$time.iso` named no time at all.
            guard accept("(") else { throw error("expected ( and a date after $time.iso, such as $time.iso(2024-01-31T09:00:00Z)", expected: ["("]) }
            return try parseISODate()
        }
        guard accept("(") else { return TimeExpression(kind: kind, offset: 0) }
        let negative = accept("-")
        if !negative { _ = accept("+") }
        // Bounded so that calendar arithmetic on it can never overflow.
        guard case .number(let value) = current.kind, let number = value.number, abs(number) <= 1_000_000 else {
            throw error("expected a number of \(kind.unit) (at most 1000000)", expected: ["an integer"])
        }
        index += 1
        try expect(")")
        return TimeExpression(kind: kind, offset: negative ? -number : number)
    }

    /// `$time.iso(2024-01-01T10:00:00Z)`, bare or quoted. The bare form spans several tokens,
    /// so it is read from the source bytes and must be a well-formed ISO-8601 date.
    private mutating func parseISODate() throws(PredicateParseError) -> TimeExpression {
        let start = current
        let text: String
        if case .string(let quoted) = start.kind {
            text = quoted
            index += 1
        } else {
            while current.punctuation != ")", current.kind != .end { index += 1 }
            text = String(decoding: source.bytes[start.start..<current.start], as: UTF8.self)
        }
        let allowed = text.unicodeScalars.allSatisfy { $0.properties.isASCIIHexDigit || "TZ:+-.".unicodeScalars.contains($0) }
        guard allowed, CivilDate.parseISO8601(text) != nil else {
            throw source.error("expected an ISO-8601 date such as 2024-01-31T09:00:00Z", atByte: start.start, expected: ["an ISO-8601 date"])
        }
        try expect(")")
        return TimeExpression(kind: .iso, offset: 0, iso: text)
    }
}
