/// One comparison operator applied to two values (after any ANY/ALL/NONE expansion).
enum Operators {
    static func apply(_ op: ComparisonOperator, _ left: PredicateValue, _ right: PredicateValue,
                      options: ComparisonOptions) throws(PredicateEvaluationError) -> Bool
    {
        switch op {
        case .equal: return ValueComparison.equal(left, right, options: options)
        case .notEqual: return !ValueComparison.equal(left, right, options: options)
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            guard let order = try ValueComparison.order(left, right, options: options, operatorName: op.rawValue) else { return false }
            return satisfies(order, op)
        case .between: return try between(left, right, options: options)
        case .in: return try membership(of: left, in: right, options: options, operatorName: "IN")
        case .contains: return try membership(of: right, in: left, options: options, operatorName: "CONTAINS")
        case .beginsWith, .endsWith, .like, .matches:
            return try stringOperator(op, left, right, options: options)
        }
    }

    private static func satisfies(_ order: Int, _ op: ComparisonOperator) -> Bool {
        switch op {
        case .lessThan: order < 0
        case .lessThanOrEqual: order <= 0
        case .greaterThan: order > 0
        default: order >= 0
        }
    }

    /// Inclusive at both ends; the bounds must be exactly two (Foundation raises otherwise).
    private static func between(_ value: PredicateValue, _ bounds: PredicateValue,
                                options: ComparisonOptions) throws(PredicateEvaluationError) -> Bool
    {
        guard case .array(let pair) = bounds, pair.count == 2 else {
            throw PredicateEvaluationError("BETWEEN needs an aggregate of exactly two bounds, not \(describeCount(bounds))")
        }
        guard let low = try ValueComparison.order(value, pair[0], options: options, operatorName: "BETWEEN"),
            let high = try ValueComparison.order(value, pair[1], options: options, operatorName: "BETWEEN")
        else { return false }
        return low >= 0 && high <= 0
    }

    private static func describeCount(_ value: PredicateValue) -> String {
        value.elements.map { "\($0.count) element(s)" } ?? value.kindName
    }

    /// `element IN collection` (also `collection CONTAINS element`); with a string as the
    /// container it is a substring test.
    private static func membership(of element: PredicateValue, in container: PredicateValue,
                                   options: ComparisonOptions, operatorName: String) throws(PredicateEvaluationError) -> Bool
    {
        switch (container, element) {
        case (.null, _): return false
        case (.array(let values), _), (.set(let values), _): return ValueComparison.contains(values, element, options: options)
        case (.dictionary(let dictionary), _): return ValueComparison.contains(Array(dictionary.values), element, options: options)
        case (.string, .null): return false
        case (.string(let haystack), .string(let needle)):
            return substring(options.fold(needle), in: options.fold(haystack), options: options)
        default:
            throw PredicateEvaluationError("\(operatorName) cannot look for \(element.kindName) in \(container.kindName)")
        }
    }

    private static func substring(_ needle: String, in haystack: String, options: ComparisonOptions) -> Bool {
        options.contains(.wordBased)
            ? StringMatching.containsAtWordStart(haystack, needle) : StringMatching.contains(haystack, needle)
    }

    private static func stringOperator(_ op: ComparisonOperator, _ left: PredicateValue, _ right: PredicateValue,
                                       options: ComparisonOptions) throws(PredicateEvaluationError) -> Bool
    {
        guard case .string(let rawString) = left, case .string(let rawPattern) = right else {
            if left.isNull || right.isNull { return false }
            throw PredicateEvaluationError("\(op.rawValue) needs strings on both sides, not \(left.kindName) and \(right.kindName)")
        }
        let string = options.fold(rawString), pattern = options.fold(rawPattern)
        switch op {
        case .beginsWith: return StringMatching.hasPrefix(string, pattern)
        case .endsWith: return StringMatching.hasSuffix(string, pattern)
        case .like:
            if options.contains(.wordBased) { return wordLike(string, LikePattern(pattern)) }
            return LikePattern(pattern).matches(string)
        default:
            // Case folding the pattern would turn `\D` into `\d`: only strip its diacritics
            // and let the regex engine ignore case.
            let diacriticsOnly = options.intersection(.diacriticInsensitive)
            return try RegexMatching.wholeMatch(diacriticsOnly.fold(rawString), pattern: diacriticsOnly.fold(rawPattern),
                                                caseInsensitive: options.contains(.caseInsensitive))
        }
    }

    /// Spotlight `w`: the pattern matches the string from the start of some word on.
    private static func wordLike(_ string: String, _ pattern: LikePattern) -> Bool {
        if pattern.matches(string) { return true }
        let scalars = Array(string.unicodeScalars)
        for index in scalars.indices.dropFirst() where scalars[index].properties.isAlphabetic && !scalars[index - 1].properties.isAlphabetic {
            if pattern.matches(String(String.UnicodeScalarView(scalars[index...]))) { return true }
        }
        return false
    }
}

/// MATCHES: the whole string against an ICU-style regular expression, through Swift Regex.
enum RegexMatching {
    static func wholeMatch(_ string: String, pattern: String, caseInsensitive: Bool) throws(PredicateEvaluationError) -> Bool {
        let regex: Regex<AnyRegexOutput>
        do {
            regex = try Regex(pattern)
        } catch {
            throw PredicateEvaluationError("MATCHES pattern '\(pattern)' is not a valid regular expression: \(error)")
        }
        let configured = regex.ignoresCase(caseInsensitive).matchingSemantics(.unicodeScalar)
        return (try? configured.wholeMatch(in: string)) != nil
    }
}
