/// Evaluates a predicate tree against one object. A value type: the object, the
/// substitution variables and the clock travel with it, nothing is global.
struct Evaluator {
    var object: PredicateValue
    var variables: [String: PredicateValue]
    /// Nil means the system clock, read when needed: reading it (and the local time zone)
    /// for every object would cost more than most predicates.
    var pinnedTime: TimeContext?

    var time: TimeContext { pinnedTime ?? .current }

    func evaluate(_ node: PredicateNode) throws(PredicateEvaluationError) -> Bool {
        switch node {
        case .constant(let value): return value
        case .not(let inner): return !(try evaluate(inner))
        case .and(let terms):
            for term in terms where !(try evaluate(term)) { return false }
            return true
        case .or(let terms):
            for term in terms where try evaluate(term) { return true }
            return false
        case .comparison(let comparison): return try evaluate(comparison)
        }
    }

    private func evaluate(_ comparison: Comparison) throws(PredicateEvaluationError) -> Bool {
        var quantifier = comparison.quantifier
        let left = try value(of: comparison.left)
        let right = try value(of: comparison.right)
        // Spotlight's `*`: true when any attribute of the object satisfies the comparison.
        if case .anyAttribute = comparison.left, quantifier == .direct { quantifier = .any }
        guard quantifier != .direct else {
            return try Operators.apply(comparison.op, left, right, options: comparison.options)
        }
        let elements: [PredicateValue]
        switch left {
        case .null: elements = []
        case .array(let values), .set(let values): elements = values
        default:
            throw PredicateEvaluationError("ANY, ALL and NONE need an array or a set on the left, not \(left.kindName)")
        }
        for element in elements {
            let matched = try Operators.apply(comparison.op, element, right, options: comparison.options)
            switch quantifier {
            case .any where matched: return true
            case .all where !matched: return false
            case .none where matched: return false
            default: continue
            }
        }
        return quantifier != .any
    }
}
