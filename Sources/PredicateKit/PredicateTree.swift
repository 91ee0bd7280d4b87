/// The typed tree behind `Predicate`. Internal so that the public surface stays the
/// `Predicate` struct (as GRDB keeps `SQLExpression.Impl` private): callers build
/// predicates from strings and transform them through methods, never by pattern matching.
indirect enum PredicateNode: Sendable, Hashable {
    case constant(Bool)
    case comparison(Comparison)
    case not(PredicateNode)
    case and([PredicateNode])
    case or([PredicateNode])
}

/// `ANY`/`SOME`, `ALL`, `NONE`, or nothing before the left operand.
enum Quantifier: Sendable, Hashable {
    case direct, any, all, none
}

enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    case lessThan = "<"
    case lessThanOrEqual = "<="
    case greaterThan = ">"
    case greaterThanOrEqual = ">="
    case equal = "=="
    case notEqual = "!="
    case matches = "MATCHES"
    case like = "LIKE"
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case `in` = "IN"
    case contains = "CONTAINS"
    case between = "BETWEEN"

    /// The operator that gives the same result with its operands swapped, when one exists.
    var mirrored: ComparisonOperator? {
        switch self {
        case .lessThan: .greaterThan
        case .lessThanOrEqual: .greaterThanOrEqual
        case .greaterThan: .lessThan
        case .greaterThanOrEqual: .lessThanOrEqual
        case .equal, .notEqual: self
        default: nil
        }
    }
}

/// `[c]`, `[d]`, and the Spotlight-only word option `w` (match at word starts).
struct ComparisonOptions: OptionSet, Sendable, Hashable {
    let rawValue: UInt8
    static let caseInsensitive = ComparisonOptions(rawValue: 1)
    static let diacriticInsensitive = ComparisonOptions(rawValue: 2)
    static let wordBased = ComparisonOptions(rawValue: 4)

    var letters: String {
        (contains(.caseInsensitive) ? "c" : "") + (contains(.diacriticInsensitive) ? "d" : "")
            + (contains(.wordBased) ? "w" : "")
    }
}

struct Comparison: Sendable, Hashable {
    var quantifier: Quantifier
    var left: ExpressionNode
    var op: ComparisonOperator
    var options: ComparisonOptions
    var right: ExpressionNode
}

/// `[n]`, `[FIRST]`, `[LAST]`, `[SIZE]`.
indirect enum IndexKind: Sendable, Hashable {
    case first, last, size
    case at(ExpressionNode)
}

enum SetOperation: String, Sendable, Hashable {
    case union = "UNION", intersect = "INTERSECT", minus = "MINUS"
}

indirect enum ExpressionNode: Sendable, Hashable {
    case constant(PredicateValue)
    case evaluatedObject
    /// Key path components applied to `base` (usually the evaluated object).
    case keyPath(base: ExpressionNode, components: [String])
    case variable(String)
    /// Spotlight's `*`: any attribute of the evaluated object.
    case anyAttribute
    case aggregate([ExpressionNode])
    case index(ExpressionNode, IndexKind)
    /// A built-in function by its selector name (`add:to:`, `sum:`, `castObject:toType:`).
    case function(String, [ExpressionNode])
    /// `FUNCTION(receiver, 'selector', args…)`.
    case method(receiver: ExpressionNode, selector: String, arguments: [ExpressionNode])
    case subquery(collection: ExpressionNode, variable: String, predicate: PredicateNode)
    case setOperation(SetOperation, ExpressionNode, ExpressionNode)
    case ternary(PredicateNode, ExpressionNode, ExpressionNode)
    /// Spotlight's `$time.today(-1)` and friends, resolved against a clock at use.
    case time(TimeExpression)
}

extension ExpressionNode {
    static func keyPath(_ path: String) -> ExpressionNode {
        .keyPath(base: .evaluatedObject, components: path.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
    }

    /// The dotted key path when this is a key path on the evaluated object.
    var rootKeyPath: String? {
        if case .keyPath(.evaluatedObject, let components) = self { return components.joined(separator: ".") }
        return nil
    }
}
