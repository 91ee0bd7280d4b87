/// Prints a tree as a canonical format string: keywords upper-case, `==`, `[cd]`,
/// double-quoted strings, one space around binary operators, and parentheses only where
/// precedence needs them. Parsing the output gives the same tree.
enum Printer {
    static func predicate(_ node: PredicateNode) -> String {
        switch node {
        case .constant(let value): return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .comparison(let comparison): return self.comparison(comparison)
        case .not(let inner): return "NOT " + parenthesizedIfCompound(inner, allowAnd: false)
        case .and(let terms) where terms.isEmpty: return "TRUEPREDICATE"
        case .or(let terms) where terms.isEmpty: return "FALSEPREDICATE"
        case .and(let terms): return terms.map { parenthesizedIfCompound($0, allowAnd: false) }.joined(separator: " AND ")
        case .or(let terms): return terms.map { parenthesizedIfCompound($0, allowAnd: true) }.joined(separator: " OR ")
        }
    }

    private static func parenthesizedIfCompound(_ node: PredicateNode, allowAnd: Bool) -> String {
        switch node {
        case .or: "(" + predicate(node) + ")"
        case .and where !allowAnd: "(" + predicate(node) + ")"
        default: predicate(node)
        }
    }

    private static func comparison(_ comparison: Comparison) -> String {
        let quantifier = switch comparison.quantifier {
        case .direct: ""
        case .any: "ANY "
        case .all: "ALL "
        case .none: "NONE "
        }
        let options = comparison.options.isEmpty ? "" : "[\(comparison.options.letters)]"
        return quantifier + expression(comparison.left) + " " + comparison.op.rawValue + options + " "
            + expression(comparison.right)
    }

    static func literal(_ value: PredicateValue) -> String {
        switch value {
        case .null: return "nil"
        case .bool(let flag): return flag ? "YES" : "NO"
        case .int(let number): return String(number)
        case .double(let number): return number.isFinite ? "\(number)" : "CAST(\"\(number)\", \"NSNumber\")"
        case .string(let text): return quoted(text)
        case .date(let seconds): return "CAST(\(numberText(seconds)), \"NSDate\")"
        case .data(let bytes): return "CAST(\(quoted(bytes.map { String($0, radix: 16) }.joined(separator: " "))), \"NSData\")"
        case .array(let values), .set(let values): return "{" + values.map(literal).joined(separator: ", ") + "}"
        case .dictionary(let dictionary):
            return "{" + dictionary.keys.sorted().map { literal(dictionary[$0] ?? .null) }.joined(separator: ", ") + "}"
        }
    }

    /// Integral values print without a fraction, so a date constant reads naturally.
    private static func numberText(_ number: Double) -> String {
        if number.rounded() == number, abs(number) < 1e15 { return String(Int64(number)) }
        return "\(number)"
    }

    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// A key that is a reserved word, or starts with a digit (it would lex as a number), is
    /// written with `#`.
    static func key(_ component: String) -> String {
        let startsWithDigit = component.utf8.first.map { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } ?? false
        return startsWithDigit || Parser.reservedWords.contains(component.uppercased()) ? "#" + component : component
    }
}
