/// Compiles a predicate to a SQLite WHERE clause with bound parameters, plus the residual
/// predicate that memory evaluation must still apply. Never drops a condition: what SQL
/// cannot express exactly becomes a coarser filter (a superset) and stays in the residual.
struct SQLCompiler {
    let schema: SQLSchema
    /// Why parts run in memory, for the explanation.
    var notes: [String] = []

    init(schema: SQLSchema) { self.schema = schema }

    mutating func compile(_ node: PredicateNode) throws(PredicateCompileError) -> SQLFragment {
        switch node {
        case .constant(let value): return value ? .all : .none
        case .not(let inner): return .not(try compile(inner))
        case .and(let terms):
            var fragments: [SQLFragment] = []
            for term in terms { fragments.append(try compile(term)) }
            return .and(fragments)
        case .or(let terms):
            var fragments: [SQLFragment] = []
            for term in terms { fragments.append(try compile(term)) }
            return .or(fragments)
        case .comparison(let comparison):
            let fragment = try compile(comparison)
            if !fragment.isExact { notes.append(Printer.predicate(node) + ": " + reason(comparison)) }
            return fragment
        }
    }

    private mutating func compile(_ comparison: Comparison) throws(PredicateCompileError) -> SQLFragment {
        guard let normalized = SQLComparison(comparison) else {
            try checkKeysAreKnown(comparison)
            return .unfiltered
        }
        guard let column = schema.columns[normalized.key] else {
            try checkKeysAreKnown(comparison)
            return .unfiltered
        }
        switch column {
        case .scalar(let name, let type, let folded):
            guard normalized.quantifier == .direct else { return .unfiltered }
            return normalized.compile(column: name, type: type, folded: folded)
        case .multiValued(let table, let itemColumn, let valueColumn, let type):
            return compileMultiValued(normalized, table: table, itemColumn: itemColumn, valueColumn: valueColumn, type: type)
        case .fullText(let table):
            return try FullTextQuery.compile(normalized, table: table, rowid: schema.rowid)
        }
    }

    private func compileMultiValued(_ comparison: SQLComparison, table: String, itemColumn: String,
                                    valueColumn: String, type: SQLType) -> SQLFragment
    {
        var perValue = comparison
        perValue.quantifier = .direct
        if comparison.quantifier == .direct {
            // `tree CONTAINS x` and `x IN tree` test membership: one value equals x. Other
            // direct comparisons were made ANY by the Spotlight rewrite; what is left (say
            // `5 < tree`) raises in memory, which the residual reports.
            guard comparison.op == .contains else { return .unfiltered }
            perValue.op = .equal
        }
        let condition = perValue.compile(column: "\(table).\(valueColumn)", type: type, folded: nil)
        let subquery = "SELECT \(table).\(itemColumn) FROM \(table)"
            + (condition.selectsEverything ? "" : " WHERE \(condition.sql)")
        switch comparison.quantifier {
        case .direct, .any:
            return SQLFragment(sql: "\(schema.rowid) IN (\(subquery))", arguments: condition.arguments, isExact: condition.isExact)
        case .none where condition.isExact:
            return .exact("\(schema.rowid) NOT IN (\(subquery))", condition.arguments)
        default:
            return .unfiltered
        }
    }

    private func reason(_ comparison: Comparison) -> String {
        let folding = comparison.options.subtracting(.wordBased)
        if comparison.op == .matches { return "MATCHES (regular expressions) has no SQL equivalent" }
        if comparison.options.contains(.wordBased) { return "the word option (w) is checked in memory" }
        guard let normalized = SQLComparison(comparison), let column = schema.columns[normalized.key] else {
            return "compares values SQL cannot compute (a key path through an attribute, arithmetic, a function, two attributes)"
        }
        if case .scalar(_, let type, let folded) = column {
            if !type.accepts(normalized.value), !normalized.value.isNull, normalized.value.elements == nil {
                return "the constant is \(normalized.value.kindName) but the column holds \(type); SQLite would convert it"
            }
            if !folding.isEmpty, folded == nil { return "the column has no folded shadow column for [c]/[d]" }
            if !folding.isEmpty, folding != [.caseInsensitive, .diacriticInsensitive] {
                return "[c] or [d] alone: filtered coarsely on the [cd]-folded column, refined in memory"
            }
        }
        if comparison.quantifier == .all { return "ALL needs every value checked" }
        return "not expressible exactly in SQL"
    }

    /// A key the schema does not know is an error, naming the key; a longer path through a
    /// known attribute is left to memory.
    private func checkKeysAreKnown(_ comparison: Comparison) throws(PredicateCompileError) {
        for path in Predicate(node: .comparison(comparison)).keyPaths {
            let root = String(path.split(separator: ".", maxSplits: 1).first ?? "")
            guard schema.columns[path] != nil || schema.columns[root] != nil else {
                throw PredicateCompileError(message: "unknown attribute '\(path)': the index has no column for it; known: "
                    + schema.columns.keys.sorted().joined(separator: ", "))
            }
        }
    }
}
