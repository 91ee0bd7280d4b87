/// A pull tokenizer for the small subset of XML that property lists use: elements, text,
/// the five named entities and numeric character references, CDATA, comments, and the
/// `<?xml?>` / `<!DOCTYPE>` prologue (skipped). Attributes are skipped, not interpreted.
struct XMLTokenizer {
    enum Token: Equatable {
        case start(String, selfClosing: Bool)
        case end(String)
        case text(String)
    }

    private let bytes: [UInt8]
    private(set) var position = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    /// The next token, or nil at the end of the input.
    mutating func next() throws(ArchiveError) -> Token? {
        while position < bytes.count {
            if bytes[position] != UInt8(ascii: "<") { return .text(try text()) }
            if try skipMarkup() { continue }
            return try tag()
        }
        return nil
    }

    /// Skips `<?...?>`, `<!--...-->` and `<!DOCTYPE ...>`; returns false at any other `<`.
    private mutating func skipMarkup() throws(ArchiveError) -> Bool {
        if matches("<?") { try skip(past: "?>"); return true }
        if matches("<!--") { try skip(past: "-->"); return true }
        if matches("<!DOCTYPE") { try skip(past: ">"); return true }
        return false
    }

    private mutating func tag() throws(ArchiveError) -> Token {
        let start = position
        position += 1
        let closing = position < bytes.count && bytes[position] == UInt8(ascii: "/")
        if closing { position += 1 }
        let nameStart = position
        while position < bytes.count, !Self.isNameEnd(bytes[position]) { position += 1 }
        let name = String(decoding: bytes[nameStart..<position], as: UTF8.self)
        guard !name.isEmpty else { throw .malformed("XML tag without a name at offset \(start)") }
        while position < bytes.count, bytes[position] != UInt8(ascii: ">") { position += 1 }
        guard position < bytes.count else { throw .malformed("XML tag <\(name)> at offset \(start) is not closed") }
        let selfClosing = bytes[position - 1] == UInt8(ascii: "/")
        position += 1
        return closing ? .end(name) : .start(name, selfClosing: selfClosing)
    }

    private static func isNameEnd(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Text up to the next tag, with entities and CDATA sections resolved.
    private mutating func text() throws(ArchiveError) -> String {
        var out = [UInt8]()
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "<") {
                guard matches("<![CDATA[") else { break }
                let start = position + 9
                try skip(past: "]]>")
                out.append(contentsOf: bytes[start..<(position - 3)])
            } else if byte == UInt8(ascii: "&") {
                try appendEntity(to: &out)
            } else {
                out.append(byte)
                position += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func appendEntity(to out: inout [UInt8]) throws(ArchiveError) {
        let start = position
        guard let semicolon = bytes[start...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
            throw .malformed("unterminated XML entity at offset \(start)")
        }
        let name = String(decoding: bytes[(start + 1)..<semicolon], as: UTF8.self)
        position = semicolon + 1
        let named: [String: String] = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'"]
        if let replacement = named[name] { out.append(contentsOf: replacement.utf8); return }
        guard name.first == "#", let scalar = Self.characterReference(name.dropFirst()) else {
            throw .malformed("unknown XML entity '&\(name);' at offset \(start)")
        }
        out.append(contentsOf: String(Character(scalar)).utf8)
    }

    private static func characterReference(_ digits: Substring) -> Unicode.Scalar? {
        let value = digits.first == "x" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        return value.flatMap(Unicode.Scalar.init)
    }

    private func matches(_ literal: String) -> Bool {
        var index = position
        for byte in literal.utf8 {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
        }
        return true
    }

    private mutating func skip(past literal: String) throws(ArchiveError) {
        let start = position
        while position < bytes.count {
            if matches(literal) { position += literal.utf8.count; return }
            position += 1
        }
        throw .malformed("XML construct at offset \(start) is missing its closing '\(literal)'")
    }
}
