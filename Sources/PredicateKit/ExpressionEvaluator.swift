/// Expression values: constants, key paths, variables, aggregates, indexes, functions,
/// SUBQUERY, set operations, TERNARY and `$time`.
extension Evaluator {
    func value(of node: ExpressionNode) throws(PredicateEvaluationError) -> PredicateValue {
        switch node {
        case .constant(let value): return value
        case .evaluatedObject: return object
        case .keyPath(.evaluatedObject, let components) where components.count == 1:
            // The common case, one key of a dictionary object, without the general walk.
            if case .dictionary(let attributes) = object, let key = components.first, key.utf8.first != UInt8(ascii: "@") {
                return attributes[key] ?? .null
            }
            return try KeyValueCoding.value(at: components[...], of: object)
        case .keyPath(let base, let components):
            return try KeyValueCoding.value(at: components[...], of: try value(of: base))
        case .variable(let name):
            guard let value = variables[name] else {
                throw PredicateEvaluationError("no value for the variable $\(name)")
            }
            return value
        case .anyAttribute: return .array(Self.attributeValues(of: object))
        case .aggregate(let elements):
            var values: [PredicateValue] = []
            for element in elements { values.append(try value(of: element)) }
            return .array(values)
        case .index(let base, let kind): return try KeyValueCoding.index(try value(of: base), kind, evaluator: self)
        case .function(let name, let arguments):
            var values: [PredicateValue] = []
            for argument in arguments { values.append(try value(of: argument)) }
            return try BuiltinFunctions.call(name, values, time: pinnedTime)
        case .method(let receiver, let selector, let arguments):
            var values: [PredicateValue] = []
            for argument in arguments { values.append(try value(of: argument)) }
            return try StringMethods.call(selector, on: try value(of: receiver), arguments: values)
        case .subquery(let collection, let variable, let predicate):
            return try subquery(try value(of: collection), variable: variable, predicate: predicate)
        case .setOperation(let operation, let left, let right):
            return try SetOperations.apply(operation, try value(of: left), try value(of: right))
        case .ternary(let condition, let whenTrue, let whenFalse):
            return try value(of: try evaluate(condition) ? whenTrue : whenFalse)
        case .time(let time):
            guard let date = time.resolve(in: self.time) else {
                throw PredicateEvaluationError("unreadable date in $time.iso(\(time.iso ?? ""))")
            }
            return .date(date)
        }
    }

    private func subquery(_ collection: PredicateValue, variable: String,
                          predicate: PredicateNode) throws(PredicateEvaluationError) -> PredicateValue
    {
        guard let elements = collection.elements else {
            if collection.isNull { return .array([]) }
            throw PredicateEvaluationError("SUBQUERY needs an array or a set, not \(collection.kindName)")
        }
        var inner = self
        var matches: [PredicateValue] = []
        for element in elements {
            inner.variables[variable] = element
            if try inner.evaluate(predicate) { matches.append(element) }
        }
        return .array(matches)
    }

    /// Every value of a dictionary object, arrays flattened one level: what `*` ranges over.
    static func attributeValues(of object: PredicateValue) -> [PredicateValue] {
        guard case .dictionary(let attributes) = object else { return [object] }
        return attributes.keys.sorted().flatMap { key -> [PredicateValue] in
            let value = attributes[key] ?? .null
            return value.elements ?? [value]
        }
    }
}

enum SetOperations {
    /// UNION, INTERSECT and MINUS take a set (or array) on each side and give a set.
    static func apply(_ operation: SetOperation, _ left: PredicateValue,
                      _ right: PredicateValue) throws(PredicateEvaluationError) -> PredicateValue
    {
        guard let leftElements = left.elements, let rightElements = right.elements else {
            throw PredicateEvaluationError("\(operation.rawValue) needs collections, not \(left.kindName) and \(right.kindName)")
        }
        var result: [PredicateValue] = []
        func insert(_ value: PredicateValue) {
            if !ValueComparison.contains(result, value, options: []) { result.append(value) }
        }
        switch operation {
        case .union: (leftElements + rightElements).forEach(insert)
        case .intersect: leftElements.filter { ValueComparison.contains(rightElements, $0, options: []) }.forEach(insert)
        case .minus: leftElements.filter { !ValueComparison.contains(rightElements, $0, options: []) }.forEach(insert)
        }
        return .set(result)
    }
}
