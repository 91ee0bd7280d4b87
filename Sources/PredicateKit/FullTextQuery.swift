/// Full-text conditions through FTS5: `rowid IN (SELECT rowid FROM t WHERE t MATCH ?)`.
/// The term is always bound as a quoted FTS5 phrase (`"` doubled), never as query syntax.
/// CONTAINS matches words starting with the term (`"term" *`), `==` the phrase, LIKE
/// `'term*'` a prefix and LIKE `'term'` the phrase. Matching is by words, case and
/// diacritics insensitive, as Spotlight's kMDItemTextContent; options are accepted and
/// change nothing.
enum FullTextQuery {
    static func compile(_ comparison: SQLComparison, table: String, rowid: String) throws(PredicateCompileError) -> SQLFragment {
        guard comparison.quantifier == .direct || comparison.quantifier == .any, case .string(let term) = comparison.value else {
            throw unsupported(comparison)
        }
        let query: String
        switch comparison.op {
        case .contains: query = phrase(term) + " *"
        case .equal: query = phrase(term)
        case .like:
            guard let literal = LikePattern(term).literalPrefix else {
                throw PredicateCompileError(message: "LIKE on full-text '\(comparison.key)' accepts only 'words' or 'words*', "
                    + "not the pattern \(Printer.quoted(term))")
            }
            query = phrase(literal.text) + (literal.isWholePattern ? "" : " *")
        default: throw unsupported(comparison)
        }
        if term.allSatisfy({ !$0.isLetter && !$0.isNumber }) { return .none }
        return .exact("\(rowid) IN (SELECT \(table).rowid FROM \(table) WHERE \(table) MATCH ?)", [.text(query)])
    }

    static func phrase(_ text: String) -> String { "\"" + text.replacing("\"", with: "\"\"") + "\"" }

    private static func unsupported(_ comparison: SQLComparison) -> PredicateCompileError {
        PredicateCompileError(message: "'\(comparison.key)' is full text: it supports CONTAINS, == and LIKE with a "
            + "string (not \(comparison.op.rawValue) with \(comparison.value.kindName))")
    }
}
