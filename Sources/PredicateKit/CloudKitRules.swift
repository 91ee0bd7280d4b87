/// CKQuery's predicate rules: AND and a restricted NOT, never OR; a field on the left
/// and a constant on the right; BEGINSWITH without modifiers; CONTAINS and ANY only on list
/// fields; `self CONTAINS 'token'` for token search; `distanceToLocation:fromLocation:`
/// for location fields.
struct CloudKitRules {
    let fields: [String: CloudKitFieldKind]

    private func fail(_ rule: String, _ message: String) -> PredicateValidationError {
        PredicateValidationError(rule: "cloudkit.\(rule)", message: message)
    }

    func check(_ node: PredicateNode, negated: Bool) throws(PredicateValidationError) {
        switch node {
        case .constant: return
        case .or: throw fail("no-or", "CKQuery does not support OR; run one query per alternative")
        case .and(let terms):
            if negated { throw fail("not-scope", "NOT in a CKQuery may only negate a single comparison") }
            for term in terms { try check(term, negated: false) }
        case .not(let inner):
            guard case .comparison = inner else { throw fail("not-scope", "NOT in a CKQuery may only negate a single comparison") }
            try check(inner, negated: true)
        case .comparison(let comparison): try check(comparison, negated: negated)
        }
    }

    private func check(_ comparison: Comparison, negated: Bool) throws(PredicateValidationError) {
        if [.matches, .like, .endsWith].contains(comparison.op) {
            throw fail("operator", "CKQuery does not support \(comparison.op.rawValue); use ==, !=, <, >, <=, >=, BETWEEN, IN, CONTAINS or BEGINSWITH")
        }
        if comparison.quantifier == .all || comparison.quantifier == .none {
            throw fail("no-all-none", "CKQuery supports ANY but not ALL or NONE")
        }
        if !comparison.options.isEmpty {
            let rule = comparison.op == .beginsWith ? "beginswith-no-modifiers" : "no-modifiers"
            throw fail(rule, "CKQuery compares strings exactly: remove [\(comparison.options.letters)]")
        }
        try checkConstant(comparison.right)
        if comparison.left == .evaluatedObject {
            guard comparison.op == .contains, case .constant(.string) = comparison.right, !negated else {
                throw fail("token-search", "SELF may only appear as `self CONTAINS 'token'` (token search)")
            }
            return
        }
        if case .function("distanceToLocation:fromLocation:", let arguments) = comparison.left {
            guard case .location? = try fieldKind(arguments[0]), [.lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual].contains(comparison.op), !negated else {
                throw fail("location-distance", "distanceToLocation:fromLocation: needs a location field and <, <=, > or >=")
            }
            return
        }
        if case .constant = comparison.left, comparison.op == .in {
            try requireList(comparison.right, because: "IN with a constant on the left needs a list field on the right")
            return
        }
        try checkField(comparison, negated: negated)
    }

    private func checkField(_ comparison: Comparison, negated: Bool) throws(PredicateValidationError) {
        let kind = try fieldKind(comparison.left)
        switch (comparison.op, kind) {
        case (_, .location?): throw fail("location-distance", "a location field is queried only through distanceToLocation:fromLocation:")
        case (.contains, .list?): return
        case (.contains, _): throw fail("contains-list", "CONTAINS needs a list field (or `self CONTAINS 'token'` for token search)")
        case (.beginsWith, .string?) where !negated: return
        case (.beginsWith, _): throw fail("beginswith-string", "BEGINSWITH needs a string field and cannot be negated")
        case (_, .list?) where comparison.quantifier != .any && comparison.op != .in:
            throw fail("list-any", "compare a list field with ANY, CONTAINS or IN")
        case (_, let kind) where comparison.quantifier == .any:
            guard case .list? = kind else { throw fail("any-list", "ANY needs a list field") }
        default: return
        }
    }

    private func fieldKind(_ node: ExpressionNode) throws(PredicateValidationError) -> CloudKitFieldKind? {
        guard case .keyPath(.evaluatedObject, let components) = node else {
            throw fail("field-left", "the left side of a CKQuery comparison must be a record field")
        }
        guard components.count == 1, let kind = fields[components[0]] else {
            throw fail("field", "'\(components.joined(separator: "."))' is not a field of the record type; known: \(fields.keys.sorted().joined(separator: ", "))")
        }
        return kind
    }

    private func requireList(_ node: ExpressionNode, because message: String) throws(PredicateValidationError) {
        guard case .list? = try fieldKind(node) else { throw fail("in-list", message) }
    }

    private func checkConstant(_ node: ExpressionNode) throws(PredicateValidationError) {
        switch node {
        case .constant, .variable: return
        case .aggregate(let elements): for element in elements { try checkConstant(element) }
        case .keyPath(.evaluatedObject, _): return  // `'x' IN listField` puts the field on the right
        default: throw fail("constant-right", "the right side of a CKQuery comparison must be a constant or $variable")
        }
    }
}
