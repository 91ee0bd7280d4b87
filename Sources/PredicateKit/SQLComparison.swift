/// A comparison brought to the form `key OP constant` (operands swapped where the operator
/// allows), ready to be compiled against one column.
struct SQLComparison {
    var quantifier: Quantifier
    var key: String
    var op: ComparisonOperator
    var options: ComparisonOptions
    var value: PredicateValue

    init?(_ comparison: Comparison) {
        quantifier = comparison.quantifier
        options = comparison.options
        if let key = comparison.left.rootKeyPath, let value = Self.constant(comparison.right) {
            self.key = key
            op = comparison.op
            self.value = value
        } else if let key = comparison.right.rootKeyPath, let value = Self.constant(comparison.left),
            comparison.quantifier == .direct, let swapped = Self.swapped(comparison.op)
        {
            self.key = key
            op = swapped
            self.value = value
        } else {
            return nil
        }
    }

    /// `c IN key` is `key CONTAINS c` and the reverse, in memory as well (see `Operators`).
    private static func swapped(_ op: ComparisonOperator) -> ComparisonOperator? {
        switch op {
        case .in: .contains
        case .contains: .in
        default: op.mirrored
        }
    }

    private static func constant(_ node: ExpressionNode) -> PredicateValue? {
        switch node {
        case .constant(let value): return value
        case .aggregate(let elements):
            var values: [PredicateValue] = []
            for element in elements {
                guard case .constant(let value) = element else { return nil }
                values.append(value)
            }
            return .array(values)
        default: return nil
        }
    }

    /// Which column a string comparison with these options reads, and whether that is exact:
    /// no options → the column itself; `[cd]` → the folded shadow column, exactly; `[c]` or
    /// `[d]` alone → the folded column as a superset. Nil when there is no way.
    func textColumn(_ column: String, folded: String?) -> (column: String, fold: Bool, exact: Bool)? {
        let folding = options.subtracting(.wordBased)
        if options.contains(.wordBased) { return nil }
        if folding.isEmpty { return (column, false, true) }
        guard let folded else { return nil }
        return (folded, true, folding == [.caseInsensitive, .diacriticInsensitive])
    }

    func folded(_ text: String, _ fold: Bool) -> String {
        fold ? PredicateFolding.fold(text, caseInsensitive: true, diacriticInsensitive: true) : text
    }
}
