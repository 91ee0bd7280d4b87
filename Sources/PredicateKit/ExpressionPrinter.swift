/// Expression printing with precedence levels, loosest first: set operations (1), `+ -`
/// (2), `* /` (3), `**` (4), unary minus (5), postfix, primaries and literals (6). A left operand
/// is parenthesized below its operator's level, a right operand at or below it (left
/// associativity).
extension Printer {
    private static let infix: [String: (symbol: String, level: Int)] = [
        "add:to:": ("+", 2), "from:subtract:": ("-", 2), "multiply:by:": ("*", 3), "divide:by:": ("/", 3),
        "raise:toPower:": ("**", 4),
    ]

    static func expression(_ node: ExpressionNode) -> String { expression(node, minimumLevel: 0) }

    private static func level(of node: ExpressionNode) -> Int {
        switch node {
        case .setOperation: 1
        case .function(let name, let arguments) where arguments.count == 2: infix[name]?.level ?? 6
        case .function("negate:", _): 5
        // A negative literal is one token to the parser (`-1[FIRST]` indexes -1), so it
        // needs no parentheses anywhere.
        default: 6
        }
    }

    private static func expression(_ node: ExpressionNode, minimumLevel: Int) -> String {
        let text = unparenthesized(node)
        return level(of: node) < minimumLevel ? "(" + text + ")" : text
    }

    private static func unparenthesized(_ node: ExpressionNode) -> String {
        switch node {
        case .constant(let value): return literal(value)
        case .evaluatedObject: return "SELF"
        case .keyPath(.evaluatedObject, let components): return components.map(key).joined(separator: ".")
        case .keyPath(let base, let components):
            return expression(base, minimumLevel: 6) + "." + components.map(key).joined(separator: ".")
        case .variable(let name): return "$" + name
        case .anyAttribute: return "*"
        case .aggregate(let elements): return "{" + elements.map(expression).joined(separator: ", ") + "}"
        case .index(let base, let kind): return expression(base, minimumLevel: 6) + "[" + index(kind) + "]"
        case .function(let name, let arguments): return function(name, arguments)
        case .method(let receiver, let selector, let arguments):
            return "FUNCTION(" + ([expression(receiver), quoted(selector)] + arguments.map(expression)).joined(separator: ", ") + ")"
        case .subquery(let collection, let variable, let predicate):
            return "SUBQUERY(\(expression(collection)), $\(variable), \(self.predicate(predicate)))"
        case .setOperation(let operation, let left, let right):
            return expression(left, minimumLevel: 1) + " \(operation.rawValue) " + expression(right, minimumLevel: 2)
        case .ternary(let condition, let whenTrue, let whenFalse):
            return "TERNARY(\(predicate(condition)), \(expression(whenTrue)), \(expression(whenFalse)))"
        case .time(let time): return self.time(time)
        }
    }

    private static func index(_ kind: IndexKind) -> String {
        switch kind {
        case .first: "FIRST"
        case .last: "LAST"
        case .size: "SIZE"
        case .at(.keyPath(.evaluatedObject, let components)) where Parser.indexWords.contains(components[0].uppercased()):
            // `[size]` would read as `[SIZE]`: escape a key of that name inside brackets.
            "#" + expression(.keyPath(base: .evaluatedObject, components: components))
        case .at(let node): expression(node)
        }
    }

    private static func function(_ name: String, _ arguments: [ExpressionNode]) -> String {
        if arguments.count == 2, let (symbol, level) = infix[name] {
            return expression(arguments[0], minimumLevel: level) + " \(symbol) " + expression(arguments[1], minimumLevel: level + 1)
        }
        if name == "negate:", let operand = arguments.first {
            // A number right after the minus would fold into a negative literal: keep it apart.
            // `--x` reads back as two negations: no parentheses, which would also deepen the
            // nesting beyond what the input had. A space keeps `- 0[FIRST]` from reading as
            // the literal `-0`.
            let text = expression(operand, minimumLevel: 5)
            return text.first?.isNumber == true ? "- " + text : "-" + text
        }
        let list = arguments.map(expression).joined(separator: ", ")
        if name == "castObject:toType:" { return "CAST(\(list))" }
        let parts = name.split(separator: ":")
        if parts.count <= 1 { return "\(parts.first ?? "")(\(list))" }
        return "\(name)(\(list))"
    }

    private static func time(_ time: TimeExpression) -> String {
        let name = "$time." + time.kind.rawValue
        if time.kind == .iso { return name + "(\(quoted(time.iso ?? "")))" }
        guard time.offset != 0 else { return name }
        let offset = time.offset.rounded() == time.offset ? String(Int64(time.offset)) : "\(time.offset)"
        return name + "(\(offset))"
    }
}
