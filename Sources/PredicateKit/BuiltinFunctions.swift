#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// NSExpression's built-in functions, by selector name.
enum BuiltinFunctions {
    static let arity: [String: Int] = [
        "sum:": 1, "count:": 1, "min:": 1, "max:": 1, "average:": 1, "median:": 1, "mode:": 1, "stddev:": 1,
        "add:to:": 2, "from:subtract:": 2, "multiply:by:": 2, "divide:by:": 2, "modulus:by:": 2,
        "raise:toPower:": 2, "negate:": 1, "sqrt:": 1, "log:": 1, "ln:": 1, "exp:": 1, "floor:": 1,
        "ceiling:": 1, "abs:": 1, "trunc:": 1, "uppercase:": 1, "lowercase:": 1, "random": 0, "randomn:": 1,
        "now": 0, "bitwiseAnd:with:": 2, "bitwiseOr:with:": 2, "bitwiseXor:with:": 2, "leftshift:by:": 2,
        "rightshift:by:": 2, "onesComplement:": 1, "castObject:toType:": 2, "noindex:": 1,
        "distanceToLocation:fromLocation:": 2,
    ]

    static func call(_ name: String, _ arguments: [PredicateValue],
                     time: TimeContext?) throws(PredicateEvaluationError) -> PredicateValue
    {
        guard arity[name] == arguments.count else {
            throw PredicateEvaluationError("\(name) is not a function taking \(arguments.count) argument(s)")
        }
        if let result = try Arithmetic.apply(name, arguments) { return result }
        if let result = try Statistics.apply(name, arguments) { return result }
        switch name {
        case "uppercase:", "lowercase:":
            guard case .string(let text) = arguments[0] else { throw PredicateEvaluationError("\(name) needs a string") }
            return .string(name == "uppercase:" ? text.uppercased() : text.lowercased())
        case "random": return .double(Double.random(in: 0..<1))
        case "randomn:":
            guard let bound = arguments[0].number, bound >= 1, bound < 1e18 else { throw PredicateEvaluationError("randomn: needs a positive number") }
            return .int(Int64.random(in: 0..<Int64(bound)))
        case "now": return .date((time ?? .current).now)
        case "castObject:toType:":
            guard case .string(let type) = arguments[1] else { throw PredicateEvaluationError("CAST needs a class name string") }
            return try Casting.cast(arguments[0], to: type)
        case "noindex:": return arguments[0]
        default:
            throw PredicateEvaluationError("\(name) cannot be evaluated in memory (it is a CloudKit server function)")
        }
    }
}

/// `count: sum: min: max: average: median: mode: stddev:` over an array of numbers.
enum Statistics {
    static func apply(_ name: String, _ arguments: [PredicateValue]) throws(PredicateEvaluationError) -> PredicateValue? {
        guard ["count:", "sum:", "min:", "max:", "average:", "median:", "mode:", "stddev:"].contains(name) else { return nil }
        guard let elements = arguments[0].elements else {
            throw PredicateEvaluationError("\(name) needs an array or a set, not \(arguments[0].kindName)")
        }
        if name == "count:" { return .int(Int64(elements.count)) }
        if name == "min:" || name == "max:" { return try extreme(elements, wantMax: name == "max:") }
        var numbers: [Double] = []
        for element in elements where !element.isNull {
            guard let number = element.number else { throw PredicateEvaluationError("\(name) needs numbers, found \(element.kindName)") }
            numbers.append(number)
        }
        if name == "sum:" {
            if elements.allSatisfy({ if case .int = $0 { true } else { false } }),
                case (let total, false) = sumOfIntegers(elements) { return .int(total) }
            return .double(numbers.reduce(0, +))
        }
        guard !numbers.isEmpty else { return .null }
        let mean = numbers.reduce(0, +) / Double(numbers.count)
        switch name {
        case "average:": return .double(mean)
        case "median:":
            let sorted = numbers.sorted()
            let middle = sorted.count / 2
            return .double(sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle])
        case "mode:":
            let counts = Dictionary(numbers.map { ($0, 1) }, uniquingKeysWith: +)
            let best = counts.values.max() ?? 0
            return .array(counts.filter { $0.value == best }.keys.sorted().map { .double($0) })
        default:
            let variance = numbers.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(numbers.count)
            return .double(variance.squareRoot())
        }
    }

    private static func sumOfIntegers(_ elements: [PredicateValue]) -> (Int64, Bool) {
        var total: Int64 = 0
        for case .int(let value) in elements {
            let (sum, overflow) = total.addingReportingOverflow(value)
            if overflow { return (0, true) }
            total = sum
        }
        return (total, false)
    }

    private static func extreme(_ elements: [PredicateValue], wantMax: Bool) throws(PredicateEvaluationError) -> PredicateValue {
        var best: PredicateValue = .null
        for element in elements where !element.isNull {
            if best.isNull { best = element; continue }
            guard let order = try ValueComparison.order(element, best, options: [], operatorName: wantMax ? "max:" : "min:") else { continue }
            if wantMax ? order > 0 : order < 0 { best = element }
        }
        return best
    }
}
