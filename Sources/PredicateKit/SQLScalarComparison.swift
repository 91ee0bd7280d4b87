/// Compiling `key OP constant` against one scalar column (also used per value of a
/// multi-valued attribute).
extension SQLComparison {
    func compile(column: String, type: SQLType, folded: String?) -> SQLFragment {
        if value.isNull { return compileNull(column) }
        switch op {
        case .equal, .notEqual, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            guard type.accepts(value) else { return .unfiltered }
            return type == .text ? compileTextOrdering(column, folded: folded) : .exact("\(column) \(sqlOperator) ?", [SQLValue(value)])
        case .between: return compileBetween(column, type: type, folded: folded)
        case .in: return compileIn(column, type: type, folded: folded)
        case .beginsWith, .endsWith, .contains, .like:
            guard type == .text, case .string(let needle) = value else { return .unfiltered }
            return compilePattern(column, needle: needle, folded: folded)
        case .matches: return .unfiltered
        }
    }

    /// `!=` is `IS NOT`, true for NULL as `nil != x` is in memory.
    private var sqlOperator: String {
        switch op {
        case .notEqual: "IS NOT"
        case .equal: "="
        default: op.rawValue
        }
    }

    private func compileNull(_ column: String) -> SQLFragment {
        switch op {
        case .equal: .exact("\(column) IS NULL", [])
        case .notEqual: .exact("\(column) IS NOT NULL", [])
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual: .none
        default: .unfiltered
        }
    }

    private func compileTextOrdering(_ column: String, folded: String?) -> SQLFragment {
        guard case .string(let text) = value, let target = textColumn(column, folded: folded) else { return .unfiltered }
        // Folding keeps equality classes but not order: `[c]`/`[d]` alone cannot order.
        if !target.exact, op != .equal { return .unfiltered }
        let fragment = SQLFragment.exact("\(target.column) \(sqlOperator) ?", [.text(self.folded(text, target.fold))])
        return target.exact ? fragment : fragment.coarse()
    }

    private func compileBetween(_ column: String, type: SQLType, folded: String?) -> SQLFragment {
        guard case .array(let bounds) = value, bounds.count == 2, bounds.allSatisfy(type.accepts) else { return .unfiltered }
        guard type == .text else { return .exact("\(column) BETWEEN ? AND ?", bounds.map(SQLValue.init)) }
        guard let target = textColumn(column, folded: folded), target.exact else { return .unfiltered }
        return .exact("\(target.column) BETWEEN ? AND ?", bounds.map { .text(self.folded($0.string ?? "", target.fold)) })
    }

    private func compileIn(_ column: String, type: SQLType, folded: String?) -> SQLFragment {
        guard case .array(let elements) = value, elements.allSatisfy(type.accepts) else { return .unfiltered }
        if elements.isEmpty { return .none }
        let placeholders = Array(repeating: "?", count: elements.count).joined(separator: ", ")
        guard type == .text else { return .exact("\(column) IN (\(placeholders))", elements.map(SQLValue.init)) }
        guard let target = textColumn(column, folded: folded) else { return .unfiltered }
        let fragment = SQLFragment.exact("\(target.column) IN (\(placeholders))",
                                         elements.map { .text(self.folded($0.string ?? "", target.fold)) })
        return target.exact ? fragment : fragment.coarse()
    }

    /// BEGINSWITH, ENDSWITH, CONTAINS and LIKE through GLOB, which is case-sensitive and
    /// exact (LIKE would fold ASCII case). An empty needle never matches in memory.
    private func compilePattern(_ column: String, needle: String, folded: String?) -> SQLFragment {
        if needle.isEmpty, op != .like { return .none }
        guard let target = textColumn(column, folded: folded) else { return .unfiltered }
        let text = self.folded(needle, target.fold)
        let pattern: String
        switch op {
        case .beginsWith: pattern = LikePattern.globEscaped(text) + "*"
        case .endsWith: pattern = "*" + LikePattern.globEscaped(text)
        case .contains: pattern = "*" + LikePattern.globEscaped(text) + "*"
        default: pattern = LikePattern(text).globPattern
        }
        let fragment = SQLFragment.exact("\(target.column) GLOB ?", [.text(pattern)])
        return target.exact ? fragment : fragment.coarse()
    }
}
