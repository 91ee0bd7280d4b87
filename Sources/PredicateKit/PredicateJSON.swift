/// Reads JSON into a `PredicateValue` with the convention of the predicate fixtures (and
/// of `ubq predicate eval --object`): `{"$date": t}` is a date (seconds since 2001),
/// `{"$set": [...]}` a set, integers `.int`, numbers with a fraction or exponent
/// `.double`, `true`/`false` `.bool`, `null` `.null`.
public enum PredicateJSON {
    public struct SyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
        public var message: String
        /// Offset in UTF-8 bytes of the input.
        public var offset: Int
        public var description: String { "invalid JSON at byte \(offset): \(message)" }
    }

    public static func value(fromJSON text: String) throws -> PredicateValue {
        var reader = JSONReader(bytes: Array(text.utf8))
        let value = try reader.readValue(depth: 0)
        reader.skipWhitespace()
        guard reader.offset == reader.bytes.count else { throw reader.error("trailing characters after the value") }
        return value
    }
}

struct JSONReader {
    let bytes: [UInt8]
    var offset = 0
    static let maximumDepth = 512

    func error(_ message: String) -> PredicateJSON.SyntaxError { .init(message: message, offset: offset) }

    mutating func skipWhitespace() {
        while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
    }

    mutating func readValue(depth: Int) throws(PredicateJSON.SyntaxError) -> PredicateValue {
        guard depth < Self.maximumDepth else { throw error("nesting too deep") }
        skipWhitespace()
        guard offset < bytes.count else { throw error("expected a value") }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return try readObject(depth: depth)
        case UInt8(ascii: "["): return .array(try readArray(depth: depth))
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): try readWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try readWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try readWord("null"); return .null
        default: return try readNumber()
        }
    }

    private mutating func readWord(_ word: String) throws(PredicateJSON.SyntaxError) {
        let expected = Array(word.utf8)
        guard bytes.count - offset >= expected.count, Array(bytes[offset..<offset + expected.count]) == expected else {
            throw error("expected \(word)")
        }
        offset += expected.count
    }

    private mutating func readObject(depth: Int) throws(PredicateJSON.SyntaxError) -> PredicateValue {
        offset += 1
        var members: [String: PredicateValue] = [:]
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
            offset += 1
            return .dictionary(members)
        }
        repeat {
            skipWhitespace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw error("expected a member name") }
            let key = try readString()
            try expect(":")
            members[key] = try readValue(depth: depth + 1)
        } while try separator(closing: "}")
        return Self.convention(members)
    }

    /// `{"$date": t}` and `{"$set": [...]}`; any other object is a dictionary.
    private static func convention(_ members: [String: PredicateValue]) -> PredicateValue {
        guard members.count == 1 else { return .dictionary(members) }
        if let date = members["$date"], let seconds = date.number { return .date(seconds) }
        if case .array(let elements)? = members["$set"] { return .set(elements) }
        return .dictionary(members)
    }

    private mutating func readArray(depth: Int) throws(PredicateJSON.SyntaxError) -> [PredicateValue] {
        offset += 1
        var elements: [PredicateValue] = []
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
            offset += 1
            return elements
        }
        repeat { elements.append(try readValue(depth: depth + 1)) } while try separator(closing: "]")
        return elements
    }

    private mutating func expect(_ character: Character) throws(PredicateJSON.SyntaxError) {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == character.asciiValue else { throw error("expected '\(character)'") }
        offset += 1
    }

    /// True after a comma, false after the closing bracket.
    private mutating func separator(closing: Character) throws(PredicateJSON.SyntaxError) -> Bool {
        skipWhitespace()
        guard offset < bytes.count else { throw error("expected ',' or '\(closing)'") }
        if bytes[offset] == UInt8(ascii: ",") { offset += 1; return true }
        if bytes[offset] == closing.asciiValue { offset += 1; return false }
        throw error("expected ',' or '\(closing)'")
    }
}
