/// `CAST(value, 'NSDate' | 'NSNumber' | 'NSString')`, and the string methods FUNCTION()
/// may call in memory.
enum Casting {
    static func cast(_ value: PredicateValue, to type: String) throws(PredicateEvaluationError) -> PredicateValue {
        switch (type, value) {
        case (_, .null): return .null
        case ("NSDate", .date): return value
        case ("NSDate", _):
            guard let seconds = value.number else { throw PredicateEvaluationError("CAST to NSDate needs a number of seconds since 2001") }
            return .date(seconds)
        case ("NSNumber", .date(let seconds)), ("NSDecimalNumber", .date(let seconds)): return .double(seconds)
        case ("NSNumber", .string(let text)), ("NSDecimalNumber", .string(let text)):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if let integer = Int64(trimmed) { return .int(integer) }
            return .double(Double(trimmed) ?? 0)
        case ("NSNumber", _), ("NSDecimalNumber", _):
            guard value.isNumber else { throw PredicateEvaluationError("cannot CAST \(value.kindName) to NSNumber") }
            return value
        case ("NSString", .string): return value
        case ("NSString", _): return .string(Printer.literal(value))
        default:
            throw PredicateEvaluationError("cannot CAST to '\(type)'; use NSDate, NSNumber or NSString")
        }
    }
}

extension String {
    func trimmingCharacters(in set: CharacterSetKind) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }

    enum CharacterSetKind { case whitespaces }
}

enum StringMethods {
    static func call(_ selector: String, on receiver: PredicateValue,
                     arguments: [PredicateValue]) throws(PredicateEvaluationError) -> PredicateValue
    {
        guard case .string(let text) = receiver else {
            throw PredicateEvaluationError("FUNCTION '\(selector)' needs a string receiver, not \(receiver.kindName)")
        }
        let strings = arguments.compactMap(\.string)
        switch (selector, arguments.count) {
        case ("lastPathComponent", 0): return .string(text.split(separator: "/").last.map(String.init) ?? text)
        case ("pathExtension", 0):
            let last = text.split(separator: "/").last.map(String.init) ?? ""
            return .string(last.contains(".") ? String(last.split(separator: ".").last ?? "") : "")
        case ("uppercaseString", 0): return .string(text.uppercased())
        case ("lowercaseString", 0): return .string(text.lowercased())
        case ("length", 0): return .int(Int64(text.utf16.count))
        case ("substringFromIndex:", 1):
            guard let offset = arguments[0].number, offset >= 0, offset <= Double(text.utf16.count) else {
                throw PredicateEvaluationError("substringFromIndex: index out of range")
            }
            return .string(String(decoding: Array(text.utf16).dropFirst(Int(offset)), as: UTF16.self))
        case ("stringByReplacingOccurrencesOfString:withString:", 2) where strings.count == 2:
            return .string(strings[0].isEmpty ? text : text.replacing(strings[0], with: strings[1]))
        default:
            throw PredicateEvaluationError("FUNCTION selector '\(selector)' with \(arguments.count) argument(s) is not supported")
        }
    }
}
