/// Rewrites applied before SQL compilation, so that SQL and the residual read the same
/// tree: `$time` and `now()` become date constants, Spotlight's `*` becomes an OR over the
/// text attributes, and a plain comparison on a multi-valued key becomes `ANY` (`!=`
/// becomes `NONE … ==`).
enum SpotlightSemantics {
    static func prepare(_ node: PredicateNode, schema: SQLSchema, time: TimeContext) -> PredicateNode {
        let timed = (try? node.rewritingExpressions { expression throws(PredicateEvaluationError) -> ExpressionNode? in
            switch expression {
            case .time(let moment): return moment.resolve(in: time).map { .constant(.date($0)) } ?? expression
            case .function("now", _): return .constant(.date(time.now))
            default: return nil
            }
        }) ?? node
        return rewriteComparisons(timed) { comparison in
            if comparison.left == .anyAttribute { return expandAnyAttribute(comparison, schema: schema) }
            if comparison.quantifier == .direct, comparison.op != .contains, let key = comparison.left.rootKeyPath,
                case .multiValued? = schema.columns[key]
            {
                // `tree == x` means some value is x; `tree != x` means no value is x.
                var quantified = comparison
                quantified.quantifier = comparison.op == .notEqual ? .none : .any
                if comparison.op == .notEqual { quantified.op = .equal }
                return .comparison(quantified)
            }
            return .comparison(comparison)
        }
    }

    private static func rewriteComparisons(_ node: PredicateNode, _ rule: (Comparison) -> PredicateNode) -> PredicateNode {
        switch node {
        case .constant: node
        case .not(let inner): .not(rewriteComparisons(inner, rule))
        case .and(let terms): .and(terms.map { rewriteComparisons($0, rule) })
        case .or(let terms): .or(terms.map { rewriteComparisons($0, rule) })
        case .comparison(let comparison): rule(comparison)
        }
    }

    /// `* == "x"`: any text attribute of the schema that the index can search exactly for
    /// this comparison (so with `[cd]`, those with a folded shadow column, and full text for
    /// the operators it supports). Keeping only exact alternatives keeps full text out of a
    /// residual, which could not evaluate it.
    private static func expandAnyAttribute(_ comparison: Comparison, schema: SQLSchema) -> PredicateNode {
        let alternatives = textAlternatives(comparison, schema: schema)
        var compiler = SQLCompiler(schema: schema)
        let exact = alternatives.filter { (try? compiler.compile($0))?.isExact == true }
        let chosen = exact.isEmpty ? alternatives : exact
        return chosen.count == 1 ? chosen[0] : .or(chosen)
    }

    private static func textAlternatives(_ comparison: Comparison, schema: SQLSchema) -> [PredicateNode] {
        var alternatives: [PredicateNode] = []
        for key in schema.columns.keys.sorted() {
            var single = comparison
            single.left = .keyPath(key)
            switch schema.columns[key] {
            case .scalar(_, .text, _)?: alternatives.append(.comparison(single))
            case .multiValued(_, _, _, .text)?:
                single.quantifier = .any
                alternatives.append(.comparison(single))
            case .fullText? where [.contains, .equal, .like].contains(comparison.op):
                alternatives.append(.comparison(single))
            default: continue
            }
        }
        return alternatives
    }

    /// Full-text matching happens only in SQLite (memory has no text index), so a full-text
    /// condition must not end up in the residual.
    static func checkResidualAvoidsFullText(_ node: PredicateNode, schema: SQLSchema) throws(PredicateCompileError) {
        for path in Predicate(node: node).keyPaths {
            guard case .fullText? = schema.columns[path] else { continue }
            throw PredicateCompileError(message: "'\(path)' is full text, matched only by the index, but here it is combined "
                + "(by OR or NOT) with a condition that must run in memory: \(Printer.predicate(node)); "
                + "make the full-text condition a top-level AND term")
        }
    }
}
