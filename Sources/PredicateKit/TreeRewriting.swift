/// Whole-tree transforms: key path renaming, variable substitution, key path collection.
/// One generic walker (`rewritingExpressions`) so each transform states only its rule.
extension PredicateNode {
    func rewritingExpressions(_ rule: (ExpressionNode) throws(PredicateEvaluationError) -> ExpressionNode?) throws(PredicateEvaluationError) -> PredicateNode {
        switch self {
        case .constant: return self
        case .not(let inner): return .not(try inner.rewritingExpressions(rule))
        case .and(let terms):
            var result: [PredicateNode] = []
            for term in terms { result.append(try term.rewritingExpressions(rule)) }
            return .and(result)
        case .or(let terms):
            var result: [PredicateNode] = []
            for term in terms { result.append(try term.rewritingExpressions(rule)) }
            return .or(result)
        case .comparison(var comparison):
            comparison.left = try comparison.left.rewriting(rule)
            comparison.right = try comparison.right.rewriting(rule)
            return .comparison(comparison)
        }
    }

    /// Every node of the tree, depth first, for analyses.
    func forEachExpression(_ body: (ExpressionNode) -> Void) {
        _ = try? rewritingExpressions { node throws(PredicateEvaluationError) in
            body(node)
            return nil
        }
    }
}

extension ExpressionNode {
    /// Applies `rule` top-down: where it returns a node, that node replaces the subtree.
    func rewriting(_ rule: (ExpressionNode) throws(PredicateEvaluationError) -> ExpressionNode?) throws(PredicateEvaluationError) -> ExpressionNode {
        if let replaced = try rule(self) { return replaced }
        func all(_ nodes: [ExpressionNode]) throws(PredicateEvaluationError) -> [ExpressionNode] {
            var result: [ExpressionNode] = []
            for node in nodes { result.append(try node.rewriting(rule)) }
            return result
        }
        switch self {
        case .constant, .evaluatedObject, .variable, .anyAttribute, .time: return self
        case .keyPath(let base, let components): return .keyPath(base: try base.rewriting(rule), components: components)
        case .aggregate(let elements): return .aggregate(try all(elements))
        case .index(let base, .at(let position)): return .index(try base.rewriting(rule), .at(try position.rewriting(rule)))
        case .index(let base, let kind): return .index(try base.rewriting(rule), kind)
        case .function(let name, let arguments): return .function(name, try all(arguments))
        case .method(let receiver, let selector, let arguments):
            return .method(receiver: try receiver.rewriting(rule), selector: selector, arguments: try all(arguments))
        case .subquery(let collection, let variable, let predicate):
            return .subquery(collection: try collection.rewriting(rule), variable: variable,
                             predicate: try predicate.rewritingExpressions(rule))
        case .setOperation(let operation, let left, let right):
            return .setOperation(operation, try left.rewriting(rule), try right.rewriting(rule))
        case .ternary(let condition, let whenTrue, let whenFalse):
            return .ternary(try condition.rewritingExpressions(rule), try whenTrue.rewriting(rule), try whenFalse.rewriting(rule))
        }
    }
}

extension Predicate {
    /// Replaces `$VAR` by the given values; a variable with no value is an error, except the
    /// bound variable of a SUBQUERY, which stays.
    public func substituting(_ variables: [String: PredicateValue]) throws(PredicateEvaluationError) -> Predicate {
        var bound: Set<String> = []
        node.forEachExpression { if case .subquery(_, let variable, _) = $0 { bound.insert(variable) } }
        let rewritten = try node.rewritingExpressions { expression throws(PredicateEvaluationError) -> ExpressionNode? in
            guard case .variable(let name) = expression, !bound.contains(name) else { return nil }
            guard let value = variables[name] else { throw PredicateEvaluationError("no value for the variable $\(name)") }
            return Parser.expressionForArgument(value)
        }
        return Predicate(node: rewritten)
    }

    /// Renames every key path on the evaluated object (the whole dotted path is passed).
    public func mapKeyPaths(_ transform: (String) -> String) -> Predicate {
        let rewritten = try? node.rewritingExpressions { expression throws(PredicateEvaluationError) -> ExpressionNode? in
            guard let path = expression.rootKeyPath else { return nil }
            return .keyPath(transform(path))
        }
        return Predicate(node: rewritten ?? node)
    }

    /// Every key path on the evaluated object that the predicate reads, dotted.
    public var keyPaths: Set<String> {
        var paths: Set<String> = []
        node.forEachExpression { if let path = $0.rootKeyPath { paths.insert(path) } }
        return paths
    }
}
