/// A value in the key-value world a predicate is evaluated against: what NSDictionary,
/// NSArray, NSSet, NSString, NSNumber, NSDate, NSData and nil are to NSPredicate.
public enum PredicateValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    /// Seconds since 2001-01-01T00:00:00Z (the NSDate reference date).
    case date(Double)
    case data([UInt8])
    case array([PredicateValue])
    case set([PredicateValue])
    case dictionary([String: PredicateValue])
}

extension PredicateValue {
    /// The numeric value of a number or a boolean (NSNumber treats YES/NO as 1/0).
    var number: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        case .bool(let value): value ? 1 : 0
        default: nil
        }
    }

    var isNumber: Bool { number != nil }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The elements of an array or a set; nil for anything else.
    var elements: [PredicateValue]? {
        switch self {
        case .array(let values), .set(let values): values
        default: nil
        }
    }

    var isNull: Bool { self == .null }

    /// A short name for error messages ("a string", "a number").
    var kindName: String {
        switch self {
        case .null: "nil"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .date: "a date"
        case .data: "data"
        case .array: "an array"
        case .set: "a set"
        case .dictionary: "a dictionary"
        }
    }
}

extension PredicateValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByNilLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(arrayLiteral elements: PredicateValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, PredicateValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
}
