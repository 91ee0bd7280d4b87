/// Equality and ordering with Foundation's rules: numbers and booleans compare by numeric
/// value, a string never equals a number, nil equals only nil, ordering a string against a
/// number raises, and ordering anything against nil is simply false.
enum ValueComparison {
    static func equal(_ left: PredicateValue, _ right: PredicateValue, options: ComparisonOptions = []) -> Bool {
        // Fast paths for the common same-type cases, before the general tuple switch.
        if case .int(let a) = left, case .int(let b) = right { return a == b }
        if case .bool(let a) = left, case .bool(let b) = right { return a == b }
        switch (left, right) {
        case (.null, .null): return true
        case (.string(let a), .string(let b)):
            return options.isEmpty ? StringMatching.equal(a, b) : StringMatching.equal(options.fold(a), options.fold(b))
        case (.date(let a), .date(let b)): return a == b
        case (.data(let a), .data(let b)): return a == b
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1, options: options) }
        case (.set(let a), .set(let b)):
            return a.count == b.count && a.allSatisfy { element in b.contains { equal(element, $0, options: options) } }
        case (.dictionary(let a), .dictionary(let b)):
            return a.count == b.count && a.allSatisfy { key, value in b[key].map { equal(value, $0, options: options) } ?? false }
        default:
            if let a = left.number, let b = right.number { return a == b && exactIntegerEqual(left, right) }
            return false
        }
    }

    /// Two large integers can round to one Double: compare them as integers.
    private static func exactIntegerEqual(_ left: PredicateValue, _ right: PredicateValue) -> Bool {
        if case .int(let a) = left, case .int(let b) = right { return a == b }
        return true
    }

    /// -1, 0 or 1; nil when either side is nil (every ordering with nil is false).
    static func order(_ left: PredicateValue, _ right: PredicateValue, options: ComparisonOptions,
                      operatorName: String) throws(PredicateEvaluationError) -> Int?
    {
        if case .int(let a) = left, case .int(let b) = right { return a < b ? -1 : (a > b ? 1 : 0) }
        switch (left, right) {
        case (.null, _), (_, .null): return nil
        case (.string(let a), .string(let b)):
            return options.isEmpty ? StringMatching.compare(a, b) : StringMatching.compare(options.fold(a), options.fold(b))
        case (.date(let a), .date(let b)): return a < b ? -1 : (a > b ? 1 : 0)
        case (.int(let a), .int(let b)): return a < b ? -1 : (a > b ? 1 : 0)
        default:
            guard let a = left.number, let b = right.number else {
                throw PredicateEvaluationError("cannot compare \(left.kindName) with \(right.kindName) by \(operatorName)")
            }
            if a.isNaN || b.isNaN { return nil }
            return a < b ? -1 : (a > b ? 1 : 0)
        }
    }

    static func contains(_ collection: [PredicateValue], _ element: PredicateValue, options: ComparisonOptions) -> Bool {
        collection.contains { equal($0, element, options: options) }
    }
}
