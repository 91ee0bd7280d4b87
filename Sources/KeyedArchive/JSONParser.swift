/// A strict JSON parser (RFC 8259) with a nesting limit, for reading `nska-json-v1` files.
public struct JSONParser {
    private let bytes: [UInt8]
    private var position = 0
    private let maxDepth: Int

    public static func parse(_ text: String, maxDepth: Int = 512) throws(ArchiveError) -> JSONValue {
        var parser = JSONParser(bytes: Array(text.utf8), maxDepth: maxDepth)
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.position == parser.bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    private init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    private func error(_ problem: String) -> ArchiveError {
        ArchiveError(.invalidJSON, "JSON at offset \(position): \(problem)")
    }

    private mutating func skipWhitespace() {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }

    private mutating func value(depth: Int) throws(ArchiveError) -> JSONValue {
        guard depth < maxDepth else { throw error("nested deeper than \(maxDepth)") }
        skipWhitespace()
        guard position < bytes.count else { throw error("expected a value, found the end") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return try number()
        }
    }

    private mutating func literal(_ word: String) throws(ArchiveError) {
        for byte in word.utf8 {
            guard position < bytes.count, bytes[position] == byte else { throw error("expected '\(word)'") }
            position += 1
        }
    }

    private mutating func expect(_ byte: UInt8) throws(ArchiveError) {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == byte else { throw error("expected '\(Character(Unicode.Scalar(byte)))'") }
        position += 1
    }

    /// True (and consumes it) if the next non-blank byte is `byte`.
    private mutating func take(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    private mutating func object(depth: Int) throws(ArchiveError) -> JSONValue {
        position += 1
        var members = [(String, JSONValue)]()
        if take(UInt8(ascii: "}")) { return .object(members) }
        repeat {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let key = try string()
            try expect(UInt8(ascii: ":"))
            members.append((key, try value(depth: depth + 1)))
        } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"))
        return .object(members)
    }

    private mutating func array(depth: Int) throws(ArchiveError) -> JSONValue {
        position += 1
        var items = [JSONValue]()
        if take(UInt8(ascii: "]")) { return .array(items) }
        repeat { items.append(try value(depth: depth + 1)) } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "]"))
        return .array(items)
    }

    private mutating func number() throws(ArchiveError) -> JSONValue {
        let start = position
        while position < bytes.count, "+-0123456789.eE".utf8.contains(bytes[position]) { position += 1 }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        let isInteger = !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
        if isInteger, let number = Int64(text) { return .integer(number) }
        if isInteger, let number = UInt64(text) { return .unsignedInteger(number) }
        guard !text.isEmpty, let number = Double(text) else { throw error("invalid number '\(text)'") }
        return .real(number)
    }

    private mutating func string() throws(ArchiveError) -> String {
        position += 1
        var scalars = String.UnicodeScalarView()
        var run = [UInt8]()
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: "\"") {
                scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
                return String(scalars)
            }
            guard byte == UInt8(ascii: "\\") else { run.append(byte); continue }
            scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
            run.removeAll(keepingCapacity: true)
            scalars.append(try escape())
        }
        throw error("unterminated string")
    }

    private mutating func escape() throws(ArchiveError) -> Unicode.Scalar {
        guard position < bytes.count else { throw error("unterminated escape") }
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "u"): return try unicodeEscape()
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(byte)
        default: throw error("invalid escape")
        }
    }

    private mutating func unicodeEscape() throws(ArchiveError) -> Unicode.Scalar {
        let high = try hex4()
        if (0xD800..<0xDC00).contains(high), bytes[position...].starts(with: Array("\\u".utf8)) {
            position += 2
            let low = try hex4()
            if (0xDC00..<0xE000).contains(low), let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) { return scalar }
        }
        return Unicode.Scalar(high) ?? "\u{FFFD}"
    }

    private mutating func hex4() throws(ArchiveError) -> UInt32 {
        guard position + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[position..<(position + 4)], as: UTF8.self), radix: 16) else {
            throw error("invalid \\u escape")
        }
        position += 4
        return value
    }
}
