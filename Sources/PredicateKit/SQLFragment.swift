/// A piece of WHERE clause with its bound arguments. `isExact` means: the SQL is true for
/// a row exactly when the predicate is true in memory (NULL counts as false). Otherwise
/// the SQL selects a superset, and the in-memory residual decides.
struct SQLFragment: Sendable {
    var sql: String
    var arguments: [SQLValue]
    var isExact: Bool

    static let all = SQLFragment(sql: "1", arguments: [], isExact: true)
    static let none = SQLFragment(sql: "0", arguments: [], isExact: true)
    /// Nothing can be pushed down: every row is a candidate.
    static let unfiltered = SQLFragment(sql: "1", arguments: [], isExact: false)

    var selectsEverything: Bool { sql == "1" }

    static func exact(_ sql: String, _ arguments: [SQLValue]) -> SQLFragment {
        SQLFragment(sql: sql, arguments: arguments, isExact: true)
    }

    func coarse() -> SQLFragment { SQLFragment(sql: sql, arguments: arguments, isExact: false) }

    /// AND of supersets is a superset of the AND, so inexact terms still filter.
    static func and(_ terms: [SQLFragment]) -> SQLFragment {
        if terms.contains(where: { $0.sql == "0" && $0.isExact }) { return .none }
        let filtering = terms.filter { !$0.selectsEverything }
        let exact = terms.allSatisfy(\.isExact)
        guard !filtering.isEmpty else { return exact ? .all : .unfiltered }
        if filtering.count == 1 { return SQLFragment(sql: filtering[0].sql, arguments: filtering[0].arguments, isExact: exact) }
        return SQLFragment(sql: filtering.map { "(\($0.sql))" }.joined(separator: " AND "),
                           arguments: filtering.flatMap(\.arguments), isExact: exact)
    }

    /// An OR with one unfiltered side selects everything.
    static func or(_ terms: [SQLFragment]) -> SQLFragment {
        let exact = terms.allSatisfy(\.isExact)
        if terms.contains(where: \.selectsEverything) { return exact ? .all : .unfiltered }
        let filtering = terms.filter { !($0.sql == "0" && $0.isExact) }
        guard !filtering.isEmpty else { return .none }
        if filtering.count == 1 { return SQLFragment(sql: filtering[0].sql, arguments: filtering[0].arguments, isExact: exact) }
        return SQLFragment(sql: filtering.map { "(\($0.sql))" }.joined(separator: " OR "),
                           arguments: filtering.flatMap(\.arguments), isExact: exact)
    }

    /// NOT of a superset is not a superset of the NOT: only exact fragments are negated.
    /// `IFNULL(…, 0)` first turns SQL's NULL into false, as memory evaluation sees it.
    static func not(_ term: SQLFragment) -> SQLFragment {
        guard term.isExact else { return .unfiltered }
        if term.sql == "1" { return .none }
        if term.sql == "0" { return .all }
        return .exact("NOT IFNULL((\(term.sql)), 0)", term.arguments)
    }
}
