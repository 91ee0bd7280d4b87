/// Key-value coding over `PredicateValue`: dictionary lookup, mapping over arrays and
/// sets, the collection operators `@count @sum @avg @min @max`, and `[index]`.
enum KeyValueCoding {
    static func value(at path: ArraySlice<String>, of value: PredicateValue) throws(PredicateEvaluationError) -> PredicateValue {
        guard let key = path.first else { return value }
        let rest = path.dropFirst()
        if key.utf8.first == UInt8(ascii: "@") {
            return try collectionOperator(key, rest: rest, of: value)
        }
        switch value {
        case .null: return .null
        case .dictionary(let dictionary): return try self.value(at: rest, of: dictionary[key] ?? .null)
        case .array(let elements):
            var mapped: [PredicateValue] = []
            for element in elements { mapped.append(try self.value(at: path, of: element)) }
            return .array(mapped)
        case .set(let elements):
            var mapped: [PredicateValue] = []
            for element in elements { mapped.append(try self.value(at: path, of: element)) }
            return .set(mapped)
        default:
            return try self.value(at: rest, of: try property(key, of: value))
        }
    }

    /// The few properties scalars answer to (`description` of a string is the string).
    private static func property(_ key: String, of value: PredicateValue) throws(PredicateEvaluationError) -> PredicateValue {
        switch (key, value) {
        case ("self", _): return value
        case ("description", .string): return value
        case ("length", .string(let text)): return .int(Int64(text.utf16.count))
        case ("description", _): return .string(Printer.literal(value))
        default: throw PredicateEvaluationError("\(value.kindName) has no key '\(key)'")
        }
    }

    private static func collectionOperator(_ name: String, rest: ArraySlice<String>,
                                           of value: PredicateValue) throws(PredicateEvaluationError) -> PredicateValue
    {
        if value.isNull { return .null }
        guard let elements = value.elements else {
            throw PredicateEvaluationError("\(name) needs an array or a set, not \(value.kindName)")
        }
        if name == "@count" { return try self.value(at: rest, of: .int(Int64(elements.count))) }
        var operands: [PredicateValue] = []
        for element in elements { operands.append(try self.value(at: rest, of: element)) }
        let function: String
        switch name {
        case "@sum": function = "sum:"
        case "@avg": function = "average:"
        case "@min": function = "min:"
        case "@max": function = "max:"
        default: throw PredicateEvaluationError("unknown collection operator \(name); use @count, @sum, @avg, @min or @max")
        }
        return try BuiltinFunctions.call(function, [.array(operands)], time: nil)
    }

    static func index(_ value: PredicateValue, _ kind: IndexKind, evaluator: Evaluator) throws(PredicateEvaluationError) -> PredicateValue {
        switch (value, kind) {
        case (.null, _): return .null
        case (.dictionary(let dictionary), .size): return .int(Int64(dictionary.count))
        case (.dictionary(let dictionary), .at(let keyNode)):
            guard case .string(let key) = try evaluator.value(of: keyNode) else {
                throw PredicateEvaluationError("a dictionary is indexed by a string key")
            }
            return dictionary[key] ?? .null
        case (.array(let elements), _), (.set(let elements), _):
            return try index(elements, kind, evaluator: evaluator)
        default:
            throw PredicateEvaluationError("cannot index \(value.kindName)")
        }
    }

    private static func index(_ elements: [PredicateValue], _ kind: IndexKind,
                              evaluator: Evaluator) throws(PredicateEvaluationError) -> PredicateValue
    {
        switch kind {
        case .first: return elements.first ?? .null
        case .last: return elements.last ?? .null
        case .size: return .int(Int64(elements.count))
        case .at(let node):
            let position = try evaluator.value(of: node)
            guard let number = position.number, number.rounded() == number, number >= 0, number < Double(elements.count) else {
                throw PredicateEvaluationError("index \(Printer.literal(position)) is out of bounds for \(elements.count) element(s)")
            }
            return elements[Int(number)]
        }
    }
}
