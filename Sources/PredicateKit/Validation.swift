/// Where a predicate will run, and so which rules it must follow.
public enum PredicateContext: Sendable {
    /// NSMetadataQuery: only the given metadata attributes; no MATCHES, SUBQUERY, FUNCTION.
    case metadataQuery(attributes: Set<String>)
    /// CKQuery against records with these fields.
    case cloudKit(fields: [String: CloudKitFieldKind])
}

/// The CloudKit field types that matter to CKQuery's rules.
public indirect enum CloudKitFieldKind: Sendable, Hashable {
    case string, int64, double, date, bytes, reference, asset, location
    case list(CloudKitFieldKind)
}

extension Predicate {
    /// Checks the predicate against the rules of `context`; the error names the rule.
    public func validate(for context: PredicateContext) throws(PredicateValidationError) {
        switch context {
        case .metadataQuery(let attributes): try MetadataQueryRules(attributes: attributes).check(node)
        case .cloudKit(let fields): try CloudKitRules(fields: fields).check(node, negated: false)
        }
    }
}

/// NSMetadataQuery accepts comparisons of metadata attributes with constants; Spotlight
/// cannot run regular expressions, subqueries or method calls.
struct MetadataQueryRules {
    let attributes: Set<String>

    func check(_ node: PredicateNode) throws(PredicateValidationError) {
        switch node {
        case .constant: return
        case .not(let inner): try check(inner)
        case .and(let terms), .or(let terms): for term in terms { try check(term) }
        case .comparison(let comparison):
            if comparison.op == .matches {
                throw PredicateValidationError(rule: "metadata.no-matches",
                                               message: "NSMetadataQuery does not support MATCHES; use LIKE with * and ? wildcards")
            }
            try check(comparison.left)
            try check(comparison.right)
        }
    }

    private func check(_ expression: ExpressionNode) throws(PredicateValidationError) {
        var failure: PredicateValidationError?
        PredicateNode.comparison(Comparison(quantifier: .direct, left: expression, op: .equal, options: [], right: .constant(.null)))
            .forEachExpression { node in
                guard failure == nil else { return }
                failure = violation(node)
            }
        if let failure { throw failure }
    }

    private func violation(_ node: ExpressionNode) -> PredicateValidationError? {
        switch node {
        case .subquery: return PredicateValidationError(rule: "metadata.no-subquery", message: "NSMetadataQuery does not support SUBQUERY")
        case .method: return PredicateValidationError(rule: "metadata.no-function", message: "NSMetadataQuery does not support FUNCTION()")
        case .keyPath(.evaluatedObject, let components):
            let path = components.joined(separator: ".")
            guard !attributes.contains(path) else { return nil }
            let hint = AttributeHint.meant(by: path, known: attributes).map { "did you mean '\($0)'? " } ?? ""
            return PredicateValidationError(rule: "metadata.attribute",
                                            message: "'\(path)' is not a metadata attribute; \(hint)known: \(attributes.sorted().joined(separator: ", "))")
        default: return nil
        }
    }
}
