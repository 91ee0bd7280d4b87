/// A JSON value for the `nska-json-v1` convention. Objects keep their key order; numbers keep
/// whether they were written as integers, since the convention tells `1` from `1.0`.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case unsignedInteger(UInt64)
    case real(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.unsignedInteger(let a), .unsignedInteger(let b)): return a == b
        case (.real(let a), .real(let b)): return a == b || (a.isNaN && b.isNaN)
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The member of an object, if any.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// Serialises with `indent` spaces per level (0: one line).
    public func serialized(indent: Int = 1) -> String {
        var out = ""
        JSONWriter(indent: indent).write(self, level: 0, to: &out)
        return out
    }
}

struct JSONWriter {
    let indent: Int

    func write(_ value: JSONValue, level: Int, to out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .integer(let number): out += String(number)
        case .unsignedInteger(let number): out += String(number)
        case .real(let number): out += Self.realText(number)
        case .string(let text): Self.writeString(text, to: &out)
        case .array(let items):
            writeContainer(open: "[", close: "]", count: items.count, level: level, to: &out) { index, out in
                write(items[index], level: level + 1, to: &out)
            }
        case .object(let members):
            writeContainer(open: "{", close: "}", count: members.count, level: level, to: &out) { index, out in
                Self.writeString(members[index].0, to: &out)
                out += indent > 0 ? ": " : ":"
                write(members[index].1, level: level + 1, to: &out)
            }
        }
    }

    private func writeContainer(open: String, close: String, count: Int, level: Int, to out: inout String,
                                item: (Int, inout String) -> Void) {
        out += open
        guard count > 0 else { out += close; return }
        let newline = indent > 0 ? "\n" : ""
        for index in 0..<count {
            out += (index == 0 ? "" : ",") + newline + String(repeating: " ", count: indent * (level + 1))
            item(index, &out)
        }
        out += newline + String(repeating: " ", count: indent * level) + close
    }

    /// Swift prints the shortest text that reads back to the same double; it always has a
    /// '.' or an exponent, as the convention requires for reals. Non-finite values are not
    /// JSON numbers: callers render them as `{"$real": ...}` first.
    static func realText(_ number: Double) -> String {
        guard number.isFinite else { return "null" }
        let text = "\(number)"
        return text.contains(".") || text.contains("e") ? text : text + ".0"
    }

    static func writeString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
