extension Predicate {
    /// Parses a Spotlight (MDQuery) query string into the same tree as format strings.
    public init(spotlightQuery: String) throws(PredicateParseError) {
        var parser = try Parser(spotlightQuery)
        node = try parser.parseWholeSpotlightQuery()
    }

    /// What `ubq ls` calls: either syntax. A query that uses Spotlight-only syntax (modifier
    /// letters after a string, `InRange(`, a `*` wildcard in an `==`/`!=` string) is read
    /// as Spotlight; anything else as a format string. When neither parses, the error is
    /// the one that got further into the input.
    public init(query: String) throws(PredicateParseError) {
        let formatResult = Result { () throws(PredicateParseError) in try Predicate(format: query) }
        let spotlightResult = Result { () throws(PredicateParseError) in try Predicate(spotlightQuery: query) }
        switch (formatResult, spotlightResult) {
        case (.success(let format), .success(let spotlight)):
            self = Self.looksLikeSpotlight(query) ? spotlight : format
        case (.success(let format), .failure): self = format
        case (.failure, .success(let spotlight)): self = spotlight
        case (.failure(let formatError), .failure(let spotlightError)):
            throw spotlightError.position > formatError.position ? spotlightError : formatError
        }
    }

    static func looksLikeSpotlight(_ query: String) -> Bool {
        guard let tokens = try? Lexer.tokenize(SourceText(query)) else { return false }
        for (offset, token) in tokens.enumerated() {
            let following = tokens[min(offset + 1, tokens.count - 1)]
            let preceding = offset > 0 ? tokens[offset - 1] : token
            if case .string(let text) = token.kind {
                if case .identifier = following.kind, following.start == token.end { return true }
                if text.contains("*"), preceding.punctuation == "==" || preceding.punctuation == "!=" || preceding.punctuation == "=" {
                    return true
                }
            }
            if token.keyword == "INRANGE", following.punctuation == "(" { return true }
        }
        return false
    }
}
