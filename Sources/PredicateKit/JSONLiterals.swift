/// JSON strings (with `\uXXXX` surrogate pairs) and numbers.
extension JSONReader {
    mutating func readString() throws(PredicateJSON.SyntaxError) -> String {
        offset += 1
        var utf16: [UInt16] = []
        var run: [UInt8] = []
        func flush() {
            utf16.append(contentsOf: String(decoding: run, as: UTF8.self).utf16)
            run.removeAll(keepingCapacity: true)
        }
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            switch byte {
            case UInt8(ascii: "\""):
                flush()
                return String(decoding: utf16, as: UTF16.self)
            case UInt8(ascii: "\\"):
                flush()
                utf16.append(try readEscape())
            case 0..<0x20: throw error("control character in a string")
            default: run.append(byte)
            }
        }
        throw error("unterminated string")
    }

    private mutating func readEscape() throws(PredicateJSON.SyntaxError) -> UInt16 {
        guard offset < bytes.count else { throw error("unterminated escape") }
        let byte = bytes[offset]
        offset += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return UInt16(byte)
        case UInt8(ascii: "b"): return 0x08
        case UInt8(ascii: "f"): return 0x0C
        case UInt8(ascii: "n"): return 0x0A
        case UInt8(ascii: "r"): return 0x0D
        case UInt8(ascii: "t"): return 0x09
        case UInt8(ascii: "u"):
            guard offset + 4 <= bytes.count,
                let unit = UInt16(String(decoding: bytes[offset..<offset + 4], as: UTF8.self), radix: 16)
            else { throw error("expected four hexadecimal digits after \\u") }
            offset += 4
            return unit
        default: throw error("unknown escape")
        }
    }

    mutating func readNumber() throws(PredicateJSON.SyntaxError) -> PredicateValue {
        let start = offset
        var isInteger = true
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                isInteger = false
            } else if !(byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || (0x30...0x39).contains(byte)) {
                break
            }
            offset += 1
        }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .int(integer) }
        guard !text.isEmpty, let number = Double(text) else {
            offset = start
            throw error("expected a value")
        }
        return .double(number)
    }
}
