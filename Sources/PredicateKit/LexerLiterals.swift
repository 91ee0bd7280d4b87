/// String and number literals: the two token kinds with an inner syntax of their own.
extension Lexer {
    /// A quoted string. `\\`, `\'`, `\"`, `\n`, `\t`, `\r`, `\0` and `\uXXXX` are escapes;
    /// any other backslash is kept, so a LIKE pattern `'a\?'` still reaches LIKE as `a\?`.
    mutating func lexString(quote: UInt8) throws(PredicateParseError) -> String {
        let start = offset
        // Fast path: most strings have no escapes and decode straight from the bytes.
        if let close = bytes[(start + 1)...].firstIndex(where: { $0 == quote || $0 == UInt8(ascii: "\\") }), bytes[close] == quote {
            offset = close + 1
            return String(decoding: bytes[(start + 1)..<close], as: UTF8.self)
        }
        offset += 1
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
            run.removeAll(keepingCapacity: true)
        }
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == quote {
                offset += 1
                flush()
                return String(scalars)
            }
            guard byte == UInt8(ascii: "\\"), offset + 1 < bytes.count else {
                run.append(byte)
                offset += 1
                continue
            }
            flush()
            try lexEscape(into: &scalars)
        }
        throw source.error("unterminated string literal", atByte: start, expected: ["a closing \(Character(UnicodeScalar(quote)))"])
    }

    private mutating func lexEscape(into scalars: inout String.UnicodeScalarView) throws(PredicateParseError) {
        let escaped = bytes[offset + 1]
        let simple: [UInt8: UnicodeScalar] = [
            UInt8(ascii: "\\"): "\\", UInt8(ascii: "'"): "'", UInt8(ascii: "\""): "\"",
            UInt8(ascii: "n"): "\n", UInt8(ascii: "t"): "\t", UInt8(ascii: "r"): "\r", UInt8(ascii: "0"): "\0",
        ]
        if let scalar = simple[escaped] {
            scalars.append(scalar)
            offset += 2
        } else if escaped == UInt8(ascii: "u") {
            let digits = bytes[(offset + 2)..<min(offset + 6, bytes.count)]
            guard digits.count == 4, let code = UInt32(String(decoding: digits, as: UTF8.self), radix: 16),
                let scalar = UnicodeScalar(code)
            else {
                throw source.error("invalid \\u escape", atByte: offset, expected: ["four hexadecimal digits naming a Unicode scalar"])
            }
            scalars.append(scalar)
            offset += 6
        } else {
            scalars.append("\\")
            offset += 1
        }
    }

    /// Decimal, `1e3`, `1.5e-3`, `0x1F`, `0o17`, `0b101`. Integers that overflow Int64 become doubles.
    mutating func lexNumber() throws(PredicateParseError) -> PredicateValue {
        let start = offset
        if bytes[offset] == UInt8(ascii: "0"), offset + 1 < bytes.count,
            let radix = [UInt8(ascii: "x"): 16, UInt8(ascii: "X"): 16, UInt8(ascii: "o"): 8, UInt8(ascii: "O"): 8,
                         UInt8(ascii: "b"): 2, UInt8(ascii: "B"): 2][bytes[offset + 1]]
        {
            offset += 2
            let digitsStart = offset
            while offset < bytes.count, Self.isWordByte(bytes[offset]) { offset += 1 }
            let digits = String(decoding: bytes[digitsStart..<offset], as: UTF8.self)
            if let value = Int64(digits, radix: radix) { return .int(value) }
            if let value = UInt64(digits, radix: radix) { return .double(Double(value)) }
            throw source.error("invalid base-\(radix) literal", atByte: start, expected: ["base-\(radix) digits"])
        }
        var isInteger = true
        skipDigits()
        if offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "."), isDigit(bytes[offset + 1]) {
            isInteger = false
            offset += 1
            skipDigits()
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
            var probe = offset + 1
            if probe < bytes.count, bytes[probe] == UInt8(ascii: "+") || bytes[probe] == UInt8(ascii: "-") { probe += 1 }
            if probe < bytes.count, isDigit(bytes[probe]) {
                isInteger = false
                offset = probe
                skipDigits()
            }
        }
        // A word right after the digits (`15T12` in `$time.iso(…)`) is left to the parser,
        // which reports it where it does not fit.
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        if isInteger, let value = Int64(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else {
            throw source.error("number literal out of range", atByte: start, expected: ["a number below 1.8e308"])
        }
        return .double(value)
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
    }
}
