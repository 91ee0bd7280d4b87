/// Whether a file's first bytes look like text, decided as GIO decides it when no magic
/// rule matched: valid UTF-8 (a character cut off by the end of the sample is allowed),
/// with no control character but whitespace, backspace and escape.
enum TextHeuristic {
    static func looksLikeText(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return false }
        var iterator = bytes[..<completeLength(bytes)].makeIterator()
        var decoder = Unicode.UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): if isControl(scalar) { return false }
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// The length without a multi-byte sequence the sample's end cut short.
    private static func completeLength(_ bytes: [UInt8]) -> Int {
        for back in 1...min(3, bytes.count) {
            let byte = bytes[bytes.count - back]
            guard byte & 0xC0 == 0x80 else {  // not a continuation byte: a lead or ASCII
                let needed = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                return needed > back ? bytes.count - back : bytes.count
            }
        }
        return bytes.count
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x08, 0x1B: false  // tab, newlines, vertical tab, form feed, backspace, escape
        case 0x00...0x1F, 0x7F...0x9F: true
        default: false
        }
    }
}
