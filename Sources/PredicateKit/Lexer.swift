/// Splits a format string into tokens. Works on UTF-8 bytes for speed: every delimiter of
/// the grammar is ASCII, and any non-ASCII byte counts as part of an identifier.
struct Lexer {
    let source: SourceText
    var offset = 0
    var bytes: [UInt8] { source.bytes }

    init(_ source: SourceText) { self.source = source }

    static func tokenize(_ source: SourceText) throws(PredicateParseError) -> [Token] {
        var lexer = Lexer(source)
        var tokens: [Token] = []
        tokens.reserveCapacity(source.bytes.count / 4 + 2)
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if case .end = token.kind { return tokens }
        }
    }

    private static let twoCharacterPunctuation: [(UInt8, UInt8, String)] = [
        "==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||", "**", ":=",
    ].map { (text: String) in (Array(text.utf8)[0], Array(text.utf8)[1], text) }
    private static let singleCharacterPunctuation: Set<UInt8> = Set("()[]{},.=<>!+-*/:?@".utf8)
    /// One preallocated String per ASCII byte, so punctuation tokens do not allocate.
    private static let singleCharacterText: [String] = (0..<128).map { String(UnicodeScalar(UInt8($0))) }

    mutating func next() throws(PredicateParseError) -> Token {
        skipWhitespace()
        let start = offset
        guard offset < bytes.count else { return Token(kind: .end, start: start, end: start) }
        let byte = bytes[offset]
        let kind: Token.Kind
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "'"): kind = .string(try lexString(quote: byte))
        case UInt8(ascii: "0")...UInt8(ascii: "9"): kind = .number(try lexNumber())
        case UInt8(ascii: "$"):
            offset += 1
            let name = lexWord()
            guard !name.isEmpty else { throw source.error("'$' must start a variable name", atByte: start, expected: ["a variable name"]) }
            kind = .variable(name)
        case UInt8(ascii: "#"):
            offset += 1
            let word = lexWord()
            guard !word.isEmpty else { throw source.error("'#' must escape a word", atByte: start, expected: ["a key name"]) }
            kind = .identifier(word, escaped: true)
        case UInt8(ascii: "%"): kind = try lexFormatSpecifier()
        case UInt8(ascii: "@"):
            offset += 1
            let word = lexWord()
            kind = word.isEmpty ? .punctuation("@") : .identifier("@" + word, escaped: true)
        default:
            if Self.isWordByte(byte) {
                kind = .identifier(lexWord(), escaped: false)
            } else {
                kind = try lexPunctuation()
            }
        }
        var token = Token(kind: kind, start: start, end: offset)
        if case .identifier(let word, false) = kind { token.keyword = Self.keyword(word) }
        return token
    }

    /// Keywords grouped by length, as bytes, for an allocation-free case-insensitive match.
    private static let keywordsByLength: [[(bytes: [UInt8], word: String)]] = {
        var table = Array(repeating: [(bytes: [UInt8], word: String)](), count: 16)
        for word in Parser.reservedWords.union(Parser.indexWords).union(["INRANGE"]) {
            table[word.utf8.count].append((Array(word.utf8), word))
        }
        return table
    }()

    /// The upper-case keyword this word spells, ignoring ASCII case; nil for other words.
    static func keyword(_ word: String) -> String? {
        let utf8 = word.utf8
        guard utf8.count < keywordsByLength.count else { return nil }
        for candidate in keywordsByLength[utf8.count]
        where zip(candidate.bytes, utf8).allSatisfy({ pair in pair.0 == (pair.1 >= 0x61 && pair.1 <= 0x7A ? pair.1 - 0x20 : pair.1) }) {
            return candidate.word
        }
        return nil
    }

    static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), 0x80...0xFF:
            true
        default: false
        }
    }

    private mutating func skipWhitespace() {
        while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C].contains(bytes[offset]) { offset += 1 }
    }

    private mutating func lexWord() -> String {
        let start = offset
        while offset < bytes.count, Self.isWordByte(bytes[offset]) { offset += 1 }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    private mutating func lexPunctuation() throws(PredicateParseError) -> Token.Kind {
        if offset + 1 < bytes.count {
            let (first, second) = (bytes[offset], bytes[offset + 1])
            if let pair = Self.twoCharacterPunctuation.first(where: { $0.0 == first && $0.1 == second }) {
                offset += 2
                return .punctuation(pair.2)
            }
        }
        let byte = bytes[offset]
        guard Self.singleCharacterPunctuation.contains(byte) else {
            throw source.error("unexpected character", atByte: offset, expected: ["an expression", "an operator"])
        }
        offset += 1
        return .punctuation(Self.singleCharacterText[Int(byte)])
    }

    private mutating func lexFormatSpecifier() throws(PredicateParseError) -> Token.Kind {
        let start = offset
        offset += 1
        while offset < bytes.count, bytes[offset] == UInt8(ascii: "l") || bytes[offset] == UInt8(ascii: "q") { offset += 1 }
        guard offset < bytes.count, "@KdiufgeDUs".utf8.contains(bytes[offset]) else {
            throw source.error("unknown format specifier", atByte: start, expected: ["%@", "%K", "%d", "%f"])
        }
        let letter = Character(UnicodeScalar(bytes[offset]))
        offset += 1
        return .formatSpecifier(letter)
    }
}
