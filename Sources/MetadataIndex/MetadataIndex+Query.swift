import APIModel
import Foundation
import GRDB
import PredicateKit

extension MetadataIndex {
    /// Runs a planned query: the compiled SQL selects candidates, the residual (what SQL
    /// cannot express) filters them in memory, then the limit applies. A residual that
    /// cannot be evaluated (Apple raises there, e.g. a string compared with a number by
    /// `<`) fails the query with a `QueryPlanError` of kind "evaluation".
    public func run(_ plan: QueryPlan) throws -> QueryResponse {
        let request = plan.request
        if request.explain { return QueryResponse(items: [], explanation: plan.compiled?.explanation ?? "no predicate: every item matches") }
        let (sql, arguments) = Self.selectStatement(plan)
        let residual = plan.compiled?.residual
        let attributes = plan.attributes
        let columns = plan.subject.columns
        return try pool.read { db in
            let rows = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(arguments))
            var items: [ResultItem] = []
            while let row = try rows.next() {
                if let residual {
                    let values = try columns.attributes(row, db: db, includeText: residual.keyPaths.contains("kMDItemTextContent"))
                    guard try Self.matches(residual, values) else { continue }
                }
                items.append(try columns.resultItem(row, attributes: attributes, db: db))
                if let limit = request.limit, items.count >= limit { break }
            }
            return QueryResponse(items: items)
        }
    }

    static func matches(_ residual: PredicateKit.Predicate, _ values: [String: AttributeValue]) throws(QueryPlanError) -> Bool {
        do {
            return try residual.evaluate(with: .dictionary(values.mapValues(\.predicateValue)))
        } catch {
            throw QueryPlanError(kind: "evaluation", message: "the predicate cannot be evaluated: \(error.message)")
        }
    }

    static func selectStatement(_ plan: QueryPlan) -> (String, [(any DatabaseValueConvertible)?]) {
        let request = plan.request
        let columns = plan.subject.columns
        let (clauses, filterArguments) = filter(plan)
        var arguments = filterArguments
        let order = request.sort.compactMap { key in
            columns.sortColumn(MetadataAttribute.canonicalName(key.attribute)).map { "\($0) \(key.ascending ? "ASC" : "DESC")" }
        } + columns.tieBreak
        var sql = "SELECT \(columns.selectList) FROM \(columns.source) WHERE \(clauses) ORDER BY \(order.joined(separator: ", "))"
        if let limit = request.limit, plan.compiled?.residual == nil {
            sql += " LIMIT ?"
            arguments.append(limit)
        }
        return (sql, arguments)
    }

    /// The SQL condition (scope, containers, compiled predicate) a record of the plan's
    /// answer meets, with its arguments; the residual still applies on top of it.
    static func filter(_ plan: QueryPlan) -> (String, [(any DatabaseValueConvertible)?]) {
        let request = plan.request
        var clauses = ["NOT (items.rel = X'446F63756D656E7473')"]  // the Documents folder is the scope, not an item
        var arguments: [(any DatabaseValueConvertible)?] = []
        if request.scope != .all {
            clauses.append("items.scope = ?")
            arguments.append(request.scope.rawValue)
        }
        if let containers = request.containers, !containers.isEmpty {
            clauses.append("items.container IN (\(containers.map { _ in "?" }.joined(separator: ", ")))")
            arguments += containers
        }
        if let compiled = plan.compiled {
            clauses.append("(\(compiled.whereClause))")
            arguments += compiled.arguments.map(\.databaseValue)
        }
        return (clauses.joined(separator: " AND "), arguments)
    }
}

extension SQLValue {
    var databaseValue: (any DatabaseValueConvertible)? {
        switch self {
        case .null: return nil
        case .integer(let value): return value
        case .real(let value): return value
        case .text(let value): return value
        case .blob(let bytes): return Data(bytes)
        }
    }
}

extension AttributeValue {
    var predicateValue: PredicateValue {
        switch self {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .int(let value): return .int(value)
        case .double(let value): return .double(value)
        case .string(let value): return .string(value)
        case .date(let value): return .date(value)
        case .array(let values): return .array(values.map(\.predicateValue))
        }
    }
}
