extension Predicate {
    /// Compiles to a SQLite WHERE clause for `schema`, with `$time.…` and `now()` resolved
    /// against the system clock.
    public func compile(for schema: SQLSchema) throws(PredicateCompileError) -> CompiledQuery {
        try compile(for: schema, time: .current)
    }

    /// Top-level AND terms compile one by one, so only the inexact ones stay in the
    /// residual. Multi-valued keys get Spotlight's "any value" meaning in SQL and residual.
    public func compile(for schema: SQLSchema, time: TimeContext) throws(PredicateCompileError) -> CompiledQuery {
        let prepared = SpotlightSemantics.prepare(node, schema: schema, time: time)
        let terms: [PredicateNode] = if case .and(let terms) = prepared { terms } else { [prepared] }
        var compiler = SQLCompiler(schema: schema)
        var fragments: [SQLFragment] = []
        var residualTerms: [PredicateNode] = []
        for term in terms {
            let fragment = try compiler.compile(term)
            fragments.append(fragment)
            if !fragment.isExact {
                try SpotlightSemantics.checkResidualAvoidsFullText(term, schema: schema)
                residualTerms.append(term)
            }
        }
        let combined = SQLFragment.and(fragments)
        let residual = residualTerms.isEmpty ? nil : Predicate(node: residualTerms.count == 1 ? residualTerms[0] : .and(residualTerms))
        return CompiledQuery(whereClause: combined.sql, arguments: combined.arguments, residual: residual,
                             explanation: Self.explain(combined, residual: residual, notes: compiler.notes, schema: schema))
    }

    private static func explain(_ fragment: SQLFragment, residual: Predicate?, notes: [String], schema: SQLSchema) -> String {
        var lines = ["SQL: SELECT … FROM \(schema.table) WHERE \(fragment.sql)"]
        lines.append(fragment.arguments.isEmpty ? "Parameters: none"
            : "Parameters: " + fragment.arguments.enumerated().map { "?\($0.offset + 1) = \($0.element.displayed)" }.joined(separator: ", "))
        guard let residual else {
            lines.append("In memory: nothing (the SQL is exact)")
            return lines.joined(separator: "\n")
        }
        lines.append("In memory, on each row the SQL returns: \(residual.description)")
        lines.append("Because:")
        lines.append(contentsOf: notes.map { "  - " + $0 })
        return lines.joined(separator: "\n")
    }
}

extension Predicate {
    /// The predicate as the index means it, for evaluating in memory what the SQL selects:
    /// `$time`/`now()` resolved, `*` expanded over the schema's text attributes, and plain
    /// comparisons on multi-valued keys turned into `ANY` (Spotlight semantics). Compare
    /// an index query's result with this predicate's in-memory result, not with `self`'s.
    public func prepared(for schema: SQLSchema, time: TimeContext) -> Predicate {
        Predicate(node: SpotlightSemantics.prepare(node, schema: schema, time: time))
    }
}
