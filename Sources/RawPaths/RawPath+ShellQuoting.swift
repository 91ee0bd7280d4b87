extension RawPath {
    /// The path as a shell word that names exactly these bytes, for messages that ask the
    /// user to act on a file: `'…'` when that is plain text, otherwise bash's ANSI-C quoting
    /// `$'…'`: each byte that is not UTF-8 as `\xNN`, control characters as `\n`, `\t`, `\r`
    /// or their bytes as `\xNN`, and `\` and `'` escaped.
    /// `mv $'caf\xe9.txt' café.txt` can be pasted as printed, where the U+FFFD of `readable`
    /// names no file.
    public var shellQuoted: String {
        var parser = Unicode.UTF8.ForwardParser()
        var input = bytes.makeIterator()
        var offset = 0
        var text = ""
        var plain = true
        while true {
            switch parser.parseScalar(from: &input) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                let escaped = Self.ansiC(scalar)
                plain = plain && escaped == nil && scalar != "'"
                text += escaped ?? String(scalar)
                offset += encoded.count
            case .error(let length):
                plain = false
                text += bytes[offset..<offset + length].map(Self.hexEscape).joined()
                offset += length
            case .emptyInput:
                return plain ? "'" + text + "'" : "$'" + text + "'"
            }
        }
    }

    /// How `$'…'` writes `scalar`; nil where it stands for itself.
    private static func ansiC(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "\\": return "\\\\"
        case "'": return "\\'"
        case "\n": return "\\n"
        case "\t": return "\\t"
        case "\r": return "\\r"
        default:
            guard scalar.properties.generalCategory == .control else { return nil }
            // Bytes, not `\u`: bash reads `\u` in the user's locale.
            return String(scalar).utf8.map(hexEscape).joined()
        }
    }

    private static func hexEscape(_ byte: UInt8) -> String {
        (byte < 0x10 ? "\\x0" : "\\x") + String(byte, radix: 16)
    }
}
