/// What the SQL compiler needs to know about the metadata index: for each attribute, the
/// column (or side table) that holds it. SQLite dialect.
public enum SQLType: Sendable, Hashable {
    case text, integer, real, boolean
    /// REAL seconds since 2001-01-01 UTC.
    case date
}

public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

public enum SQLColumn: Sendable, Hashable {
    /// One value per item in `name` (qualified, e.g. `items.fs_name`). `folded` names a
    /// shadow column holding `PredicateFolding.fold(value, true, true)`, used for `[c]`,
    /// `[d]` and `[cd]`.
    case scalar(name: String, type: SQLType, folded: String?)
    /// Several values per item, one row each in `table` (`itemColumn` = the item's rowid).
    /// A plain comparison on such a key means "any value matches" (Spotlight semantics),
    /// in SQL and in the residual alike.
    case multiValued(table: String, itemColumn: String, valueColumn: String, type: SQLType)
    /// An FTS5 table whose rowid is the item's rowid. Supports CONTAINS (word prefix),
    /// `==` (phrase) and LIKE `'word*'` (prefix), as Spotlight's kMDItemTextContent:
    /// matching is by words, case and diacritics insensitive (FTS5 `unicode61`).
    case fullText(table: String)
}

public struct SQLSchema: Sendable {
    public var table: String
    public var columns: [String: SQLColumn]

    public init(table: String, columns: [String: SQLColumn]) {
        self.table = table
        self.columns = columns
    }

    var rowid: String { "\(table).rowid" }
}

/// The output of `Predicate.compile(for:)`: a WHERE clause with `?` placeholders and its
/// arguments, plus what must still be checked in memory.
public struct CompiledQuery: Sendable {
    /// `"1"` when nothing can be pushed down.
    public var whereClause: String
    public var arguments: [SQLValue]
    /// Evaluate on each row the SQL returns; nil when the SQL is exact.
    public var residual: Predicate?
    /// For `ubq ls --explain`: the SQL, its parameters, what runs in memory and why.
    public var explanation: String
}

extension SQLValue {
    init(_ value: PredicateValue) {
        switch value {
        case .bool(let flag): self = .integer(flag ? 1 : 0)
        case .int(let number): self = .integer(number)
        case .double(let number), .date(let number): self = .real(number)
        case .string(let text): self = .text(text)
        case .data(let bytes): self = .blob(bytes)
        default: self = .null
        }
    }

    var displayed: String {
        switch self {
        case .null: "NULL"
        case .integer(let number): String(number)
        case .real(let number): "\(number)"
        case .text(let text): Printer.quoted(text)
        case .blob(let bytes): "<\(bytes.count) bytes>"
        }
    }
}

extension SQLType {
    /// Whether a constant can be compared with this column with the same result in SQLite
    /// as in memory (no affinity conversion, no string/number mixing).
    func accepts(_ value: PredicateValue) -> Bool {
        switch (self, value) {
        case (.text, .string): true
        case (.integer, _), (.real, _), (.boolean, _): value.isNumber
        case (.date, .date): true
        default: false
        }
    }
}
