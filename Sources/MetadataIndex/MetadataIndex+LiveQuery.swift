import APIModel
import Foundation
import GRDB
import PredicateKit

/// An item of a live query's answer with its row id, the handle later updates refer to.
public struct TrackedItem: Sendable, Equatable {
    public var id: Int64
    public var item: ResultItem
}

/// What a touched row is now, for one live query.
public struct Reevaluation: Sendable, Equatable {
    public var matches: Bool
    public var item: ResultItem
}

extension MetadataIndex {
    /// The gathering phase of a live query: every matching item in the requested order,
    /// with its row id. A live query has no limit.
    public func gather(_ plan: QueryPlan) throws -> [TrackedItem] {
        var unlimited = plan
        unlimited.request.limit = nil
        let (sql, arguments) = Self.selectStatement(unlimited)
        let residual = plan.compiled?.residual
        return try pool.read { db in
            let rows = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(arguments))
            var items: [TrackedItem] = []
            while let row = try rows.next() {
                if let residual, try !Self.matches(residual, row, db: db) { continue }
                items.append(TrackedItem(id: row["id"], item: try ItemColumns.resultItem(row, attributes: plan.attributes, db: db)))
            }
            return items
        }
    }

    /// Reads the rows `ids` again, in one statement, and says for each whether the plan
    /// matches it now: only the changed rows are evaluated, never the whole query. Rows no
    /// longer in the index are left out. A residual that cannot be evaluated on a row
    /// counts as not matching (the stream goes on; the gathering query reported it).
    public func reevaluate(_ plan: QueryPlan, ids: Set<Int64>) throws -> [Int64: Reevaluation] {
        guard !ids.isEmpty else { return [:] }
        let (condition, filterArguments) = Self.filter(plan)
        let sql = "SELECT \(ItemColumns.selectList), (\(condition)) AS live_match FROM \(ItemColumns.source) WHERE items.id IN (SELECT value FROM json_each(?))"
        let idList = "[" + ids.map(String.init).joined(separator: ",") + "]"
        let residual = plan.compiled?.residual
        return try pool.read { db in
            let rows = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(filterArguments + [idList]))
            var result: [Int64: Reevaluation] = [:]
            while let row = try rows.next() {
                var matches: Bool = row["live_match"]
                if matches, let residual { matches = (try? Self.matches(residual, row, db: db)) ?? false }
                result[row["id"]] = Reevaluation(matches: matches, item: try ItemColumns.resultItem(row, attributes: plan.attributes, db: db))
            }
            return result
        }
    }

    private static func matches(_ residual: PredicateKit.Predicate, _ row: Row, db: Database) throws -> Bool {
        let values = try ItemColumns.attributes(row, db: db, includeText: residual.keyPaths.contains(MetadataAttribute.textContent.name))
        return try matches(residual, values)
    }
}
