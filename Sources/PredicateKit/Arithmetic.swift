#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `+ - * / ** %`, unary minus, the math functions and the bitwise ones. Integers stay
/// integers (41 / 2 is 20, as NSNumber arithmetic in Foundation gives) until an operation
/// would overflow, then it is done in Double. Dates take and give seconds.
enum Arithmetic {
    static func apply(_ name: String, _ arguments: [PredicateValue]) throws(PredicateEvaluationError) -> PredicateValue? {
        switch name {
        case "add:to:", "from:subtract:", "multiply:by:", "divide:by:", "modulus:by:", "raise:toPower:":
            return try binary(name, arguments[0], arguments[1])
        case "bitwiseAnd:with:", "bitwiseOr:with:", "bitwiseXor:with:", "leftshift:by:", "rightshift:by:":
            return try bitwise(name, try integer(arguments[0], name), try integer(arguments[1], name))
        case "onesComplement:": return .int(~(try integer(arguments[0], name)))
        case "negate:":
            if case .int(let value) = arguments[0], value != .min { return .int(-value) }
            return .double(-(try number(arguments[0], name)))
        case "sqrt:", "log:", "ln:", "exp:", "floor:", "ceiling:", "abs:", "trunc:":
            return try unaryMath(name, arguments[0])
        default: return nil
        }
    }

    private static func number(_ value: PredicateValue, _ name: String) throws(PredicateEvaluationError) -> Double {
        guard let number = value.number else { throw PredicateEvaluationError("\(name) needs numbers, not \(value.kindName)") }
        return number
    }

    private static func integer(_ value: PredicateValue, _ name: String) throws(PredicateEvaluationError) -> Int64 {
        if case .int(let integer) = value { return integer }
        let number = try number(value, name)
        guard let integer = Int64(exactly: number.rounded(.towardZero)) else { throw PredicateEvaluationError("\(name) needs integers") }
        return integer
    }

    private static func binary(_ name: String, _ left: PredicateValue, _ right: PredicateValue) throws(PredicateEvaluationError) -> PredicateValue {
        if let dateResult = try dateArithmetic(name, left, right) { return dateResult }
        if case .int(let a) = left, case .int(let b) = right, name != "raise:toPower:" {
            if (name == "divide:by:" || name == "modulus:by:") && b == 0 {
                throw PredicateEvaluationError("division by zero")
            }
            let (result, overflow): (Int64, Bool)
            switch name {
            case "add:to:": (result, overflow) = a.addingReportingOverflow(b)
            case "from:subtract:": (result, overflow) = a.subtractingReportingOverflow(b)
            case "multiply:by:": (result, overflow) = a.multipliedReportingOverflow(by: b)
            case "divide:by:": (result, overflow) = a.dividedReportingOverflow(by: b)
            default: (result, overflow) = a.remainderReportingOverflow(dividingBy: b)
            }
            if !overflow { return .int(result) }
        }
        let a = try number(left, name), b = try number(right, name)
        switch name {
        case "add:to:": return .double(a + b)
        case "from:subtract:": return .double(a - b)
        case "multiply:by:": return .double(a * b)
        case "divide:by:": return .double(a / b)
        case "modulus:by:": return .double(fmod(a, b))
        default: return .double(pow(a, b))
        }
    }

    /// date ± seconds is a date; date − date is seconds.
    private static func dateArithmetic(_ name: String, _ left: PredicateValue,
                                       _ right: PredicateValue) throws(PredicateEvaluationError) -> PredicateValue?
    {
        switch (name, left, right) {
        case ("add:to:", .date(let date), _): return .date(date + (try number(right, name)))
        case ("add:to:", _, .date(let date)): return .date(date + (try number(left, name)))
        case ("from:subtract:", .date(let a), .date(let b)): return .double(a - b)
        case ("from:subtract:", .date(let date), _): return .date(date - (try number(right, name)))
        default: return nil
        }
    }

    private static func bitwise(_ name: String, _ a: Int64, _ b: Int64) throws(PredicateEvaluationError) -> PredicateValue {
        switch name {
        case "bitwiseAnd:with:": return .int(a & b)
        case "bitwiseOr:with:": return .int(a | b)
        case "bitwiseXor:with:": return .int(a ^ b)
        case "leftshift:by:": return .int(a << b)
        default: return .int(a >> b)
        }
    }

    private static func unaryMath(_ name: String, _ value: PredicateValue) throws(PredicateEvaluationError) -> PredicateValue {
        if case .int(let integer) = value, ["floor:", "ceiling:", "trunc:"].contains(name) { return .int(integer) }
        if case .int(let integer) = value, name == "abs:", integer != .min { return .int(abs(integer)) }
        let x = try number(value, name)
        switch name {
        case "sqrt:": return .double(x.squareRoot())
        case "log:": return .double(log10(x))
        case "ln:": return .double(Glibc.log(x))
        case "exp:": return .double(Glibc.exp(x))
        case "floor:": return .double(x.rounded(.down))
        case "ceiling:": return .double(x.rounded(.up))
        case "abs:": return .double(Swift.abs(x))
        default: return .double(x.rounded(.towardZero))
        }
    }
}
