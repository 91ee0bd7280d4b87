/// Reads XML property lists into `PlistValue`. A `<dict>` holding only `CF$UID` → integer is a
/// UID, as CoreFoundation writes keyed archives in XML.
struct XMLPlistReader {
    private var tokens: XMLTokenizer
    private let limits: DecodingLimits
    private var pending: XMLTokenizer.Token?

    init(bytes: [UInt8], limits: DecodingLimits) {
        self.tokens = XMLTokenizer(bytes: bytes)
        self.limits = limits
    }

    mutating func read() throws(ArchiveError) -> PlistValue {
        guard case .start(let name, let selfClosing) = try nextElementToken(), name == "plist", !selfClosing else {
            throw .malformed("XML property list does not start with <plist> (near offset \(tokens.position))")
        }
        let value = try readValue(depth: 0)
        guard case .end("plist") = try nextElementToken() else {
            throw .malformed("XML property list has content after its value (near offset \(tokens.position))")
        }
        return value
    }

    /// The next token that is not whitespace-only text.
    private mutating func nextElementToken() throws(ArchiveError) -> XMLTokenizer.Token? {
        if let token = pending { pending = nil; return token }
        while let token = try tokens.next() {
            if case .text(let text) = token, text.allSatisfy(\.isWhitespace) { continue }
            return token
        }
        return nil
    }

    private mutating func readValue(depth: Int) throws(ArchiveError) -> PlistValue {
        guard depth < limits.maxDepth else { throw .limit("XML property list nests deeper than \(limits.maxDepth) near offset \(tokens.position)") }
        guard case .start(let name, let selfClosing) = try nextElementToken() else {
            throw .malformed("expected a value element near offset \(tokens.position)")
        }
        switch name {
        case "true", "false":
            if !selfClosing { try expectEnd(name) }
            return .bool(name == "true")
        case "array": return .array(selfClosing ? [] : try readItems(until: "array", depth: depth))
        case "dict": return selfClosing ? .dictionary([]) : try readDictionary(depth: depth)
        default:
            let text = selfClosing ? "" : try readText(of: name)
            return try scalar(name, text)
        }
    }

    private mutating func readItems(until name: String, depth: Int) throws(ArchiveError) -> [PlistValue] {
        var items = [PlistValue]()
        while true {
            let token = try nextElementToken()
            if case .end(name) = token { return items }
            pending = token
            items.append(try readValue(depth: depth + 1))
        }
    }

    private mutating func readDictionary(depth: Int) throws(ArchiveError) -> PlistValue {
        var entries = [PlistEntry]()
        while true {
            let token = try nextElementToken()
            if case .end("dict") = token { break }
            guard case .start("key", let selfClosing) = token else {
                throw .malformed("expected <key> in <dict> near offset \(tokens.position)")
            }
            let key = selfClosing ? "" : try readText(of: "key")
            entries.append(PlistEntry(key, try readValue(depth: depth + 1)))
        }
        if entries.count == 1, entries[0].key == .string("CF$UID"), case .integer(let uid) = entries[0].value, uid >= 0 {
            return .uid(UInt64(uid))
        }
        return .dictionary(entries)
    }

    private mutating func readText(of name: String) throws(ArchiveError) -> String {
        var text = ""
        while let token = try tokens.next() {
            switch token {
            case .text(let chunk): text += chunk
            case .end(name): return text
            default: throw .malformed("unexpected element inside <\(name)> near offset \(tokens.position)")
            }
        }
        throw .malformed("<\(name)> is not closed")
    }

    private mutating func expectEnd(_ name: String) throws(ArchiveError) {
        guard case .end(name) = try nextElementToken() else { throw .malformed("<\(name)> is not closed near offset \(tokens.position)") }
    }

    private func scalar(_ name: String, _ text: String) throws(ArchiveError) -> PlistValue {
        let trimmed = String(text.filter { !$0.isWhitespace })
        switch name {
        case "string": return .string(text)
        case "integer":
            if let value = Int64(trimmed) { return .integer(value) }
            if let value = UInt64(trimmed) { return .unsignedInteger(value) }
            if trimmed.hasPrefix("0x"), let value = Int64(trimmed.dropFirst(2), radix: 16) { return .integer(value) }
        case "real":
            if let value = Double(trimmed) { return .real(value) }
            switch trimmed.lowercased() {
            case "nan": return .real(.nan)
            case "inf", "+inf", "infinity": return .real(.infinity)
            case "-inf", "-infinity": return .real(-.infinity)
            default: break
            }
        case "data": if let bytes = Base64.decode(text) { return .data(bytes) }
        case "date": if let date = ReferenceDate(iso8601: trimmed) { return .date(date.secondsSince2001) }
        default: throw .malformed("unknown property list element <\(name)> near offset \(tokens.position)")
        }
        throw .malformed("<\(name)> holds an invalid value '\(text.prefix(40))' near offset \(tokens.position)")
    }
}
