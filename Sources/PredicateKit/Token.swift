/// One lexical token of a format string or a Spotlight query. Offsets are in UTF-8 bytes
/// of the source; `SourceText` turns them into Character offsets for errors.
struct Token: Sendable {
    enum Kind: Sendable, Equatable {
        /// A bare word; `escaped` when written with `#`, so it is never a keyword.
        case identifier(String, escaped: Bool)
        case number(PredicateValue)
        case string(String)
        case variable(String)
        /// `%@`, `%K`, `%d`… without the `%` (length modifiers dropped).
        case formatSpecifier(Character)
        case punctuation(String)
        case end
    }

    var kind: Kind
    var start: Int
    var end: Int
    /// The upper-cased word when this is an unescaped identifier spelling a keyword of
    /// either grammar; computed once by the lexer, as keyword checks are the parser's
    /// most frequent question.
    var keyword: String? = nil

    var punctuation: String? {
        if case .punctuation(let text) = kind { return text }
        return nil
    }

    var describedForError: String {
        switch kind {
        case .identifier(let word, _): "'\(word)'"
        case .number: "a number"
        case .string: "a string"
        case .variable(let name): "'$\(name)'"
        case .formatSpecifier(let letter): "'%\(letter)'"
        case .punctuation(let text): "'\(text)'"
        case .end: "the end of the input"
        }
    }
}

/// The source as bytes, with the byte → Character offset conversion errors need.
struct SourceText: Sendable {
    let bytes: [UInt8]

    init(_ text: String) { bytes = Array(text.utf8) }

    func characterOffset(ofByte offset: Int) -> Int {
        let clamped = max(0, min(offset, bytes.count))
        return String(decoding: bytes[..<clamped], as: UTF8.self).count
    }

    func error(_ message: String, atByte offset: Int, expected: [String] = []) -> PredicateParseError {
        PredicateParseError(message: message, position: characterOffset(ofByte: offset), expected: expected)
    }
}
