/// A format string or query that does not parse: what was wrong, where, and what would
/// have been accepted there (in the manner of watchman's `QueryParseError`).
public struct PredicateParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    /// Offset in Characters of the input, 0-based.
    public var position: Int
    /// What the parser would have accepted at `position`, e.g. `["an expression", "')'"]`.
    public var expected: [String]

    public init(message: String, position: Int, expected: [String] = []) {
        self.message = message
        self.position = position
        self.expected = expected
    }

    public var description: String {
        var text = "\(message) at offset \(position)"
        if !expected.isEmpty { text += "; expected \(Self.list(expected))" }
        return text
    }

    /// The input, a caret under `position`, then what was expected: for `ubq predicate check`.
    public func rendered(source: String) -> String {
        // Tabs and newlines would misalign the caret: show them as single spaces.
        let shown = String(source.map { $0.isNewline || $0 == "\t" ? " " : $0 })
        let caret = String(repeating: " ", count: max(0, min(position, shown.count))) + "^"
        var lines = [shown, caret, message]
        if !expected.isEmpty { lines.append("expected \(Self.list(expected))") }
        return lines.joined(separator: "\n")
    }

    static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " or " + items[items.count - 1]
    }
}

/// Evaluation failed where Apple's Foundation raises (NSInvalidArgumentException): a string
/// ordered against a number, BETWEEN without exactly two bounds, an unknown function…
public struct PredicateEvaluationError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(message: String) { self.message = message }
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A predicate that parses but breaks a rule of the context it is used in.
public struct PredicateValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable identifier of the broken rule, e.g. `metadata.attribute` or `cloudkit.no-or`.
    public var rule: String
    public var message: String
    public init(rule: String, message: String) {
        self.rule = rule
        self.message = message
    }
    public var description: String { "\(message) [rule \(rule)]" }
}

/// A predicate the SQL compiler refuses: a key the schema does not know, or an operator a
/// column kind cannot support (full text accepts only CONTAINS, ==, LIKE).
public struct PredicateCompileError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
