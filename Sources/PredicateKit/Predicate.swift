/// A parsed predicate: NSPredicate format syntax or a Spotlight query, evaluated in memory
/// with Foundation's semantics, validated for a context, or compiled to SQL.
///
/// Grammar precedence, loosest first: `OR`, `AND`, `NOT` (so `NOT` binds tightest); then
/// comparisons; then `UNION INTERSECT MINUS`, `+ -`, `* /`, `**`, unary `-`, key paths and
/// `[index]`.
public struct Predicate: Sendable, Hashable, CustomStringConvertible {
    var node: PredicateNode

    init(node: PredicateNode) { self.node = node }

    /// Parses an NSPredicate format string. `%@`, `%K`, `%d`, `%f` (and `%i %u %ld %g`…)
    /// consume `arguments` in order; `%K` takes a string naming a key path.
    public init(format: String, arguments: [PredicateValue] = []) throws(PredicateParseError) {
        var parser = try Parser(format, arguments: arguments)
        node = try parser.parseWholePredicate()
        guard parser.argumentIndex == arguments.count else {
            throw PredicateParseError(message: "\(arguments.count - parser.argumentIndex) argument(s) left over",
                                      position: format.count, expected: ["as many format specifiers as arguments"])
        }
    }

    public static let truePredicate = Predicate(node: .constant(true))
    public static let falsePredicate = Predicate(node: .constant(false))

    /// The canonical format string; `Predicate(format: description)` equals `self`.
    public var description: String { Printer.predicate(node) }

    /// Evaluates with the system clock, read only if the predicate uses `$time` or `now()`.
    public func evaluate(with object: PredicateValue, variables: [String: PredicateValue] = [:]) throws(PredicateEvaluationError) -> Bool {
        try Evaluator(object: object, variables: variables, pinnedTime: nil).evaluate(node)
    }

    /// Evaluates against a pinned clock, for `$time.…` and `now()`.
    public func evaluate(with object: PredicateValue, variables: [String: PredicateValue] = [:],
                         time: TimeContext) throws(PredicateEvaluationError) -> Bool
    {
        try Evaluator(object: object, variables: variables, pinnedTime: time).evaluate(node)
    }

    /// Combines predicates as NSCompoundPredicate does.
    public static func and(_ predicates: [Predicate]) -> Predicate {
        predicates.count == 1 ? predicates[0] : Predicate(node: .and(predicates.map(\.node)))
    }

    public static func or(_ predicates: [Predicate]) -> Predicate {
        predicates.count == 1 ? predicates[0] : Predicate(node: .or(predicates.map(\.node)))
    }

    public static func not(_ predicate: Predicate) -> Predicate { Predicate(node: .not(predicate.node)) }
}
