/// Writes XML property lists in the layout of CoreFoundation (tab indentation, the Apple
/// DOCTYPE, UIDs as `<dict><key>CF$UID</key><integer>N</integer></dict>`).
enum XMLPlistWriter {
    static func write(_ value: PlistValue) throws(ArchiveError) -> [UInt8] {
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """
        try append(value, indent: 0, to: &out)
        out += "</plist>\n"
        return Array(out.utf8)
    }

    private static func append(_ value: PlistValue, indent: Int, to out: inout String) throws(ArchiveError) {
        let pad = String(repeating: "\t", count: indent)
        switch value {
        case .string(let text): out += pad + "<string>" + escape(text) + "</string>\n"
        case .integer(let number): out += pad + "<integer>\(number)</integer>\n"
        case .unsignedInteger(let number): out += pad + "<integer>\(number)</integer>\n"
        case .real(let number): out += pad + "<real>" + realText(number) + "</real>\n"
        case .bool(let flag): out += pad + (flag ? "<true/>\n" : "<false/>\n")
        case .date(let seconds):
            let text = ReferenceDate(secondsSince2001: seconds).iso8601Seconds
            guard text != "invalid" else { throw ArchiveError(.unsupportedValue, "the date \(seconds) has no XML form") }
            out += pad + "<date>" + text + "</date>\n"
        case .data(let bytes): out += pad + "<data>\n" + pad + Base64.encode(bytes) + "\n" + pad + "</data>\n"
        case .uid(let uid):
            out += pad + "<dict>\n" + pad + "\t<key>CF$UID</key>\n" + pad + "\t<integer>\(uid)</integer>\n" + pad + "</dict>\n"
        case .array(let items), .set(let items):
            // XML has no set element; CoreFoundation writes sets as arrays too.
            guard !items.isEmpty else { out += pad + "<array/>\n"; return }
            out += pad + "<array>\n"
            for item in items { try append(item, indent: indent + 1, to: &out) }
            out += pad + "</array>\n"
        case .dictionary(let entries):
            try appendDictionary(entries, indent: indent, to: &out)
        }
    }

    private static func appendDictionary(_ entries: [PlistEntry], indent: Int, to out: inout String) throws(ArchiveError) {
        let pad = String(repeating: "\t", count: indent)
        guard !entries.isEmpty else { out += pad + "<dict/>\n"; return }
        out += pad + "<dict>\n"
        for entry in entries {
            guard case .string(let key) = entry.key else {
                throw ArchiveError(.unsupportedValue, "XML property lists allow only string keys; found a \(entry.key.kindName) key")
            }
            out += pad + "\t<key>" + escape(key) + "</key>\n"
            try append(entry.value, indent: indent + 1, to: &out)
        }
        out += pad + "</dict>\n"
    }

    static func realText(_ number: Double) -> String {
        if number.isNaN { return "nan" }
        if number.isInfinite { return number < 0 ? "-inf" : "+inf" }
        return "\(number)"
    }

    private static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "&") }) else {
            return text
        }
        var out = ""
        for character in text {
            switch character {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            default: out.append(character)
            }
        }
        return out
    }
}
