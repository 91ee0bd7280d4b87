import APIModel
import Foundation
import GRDB
import PredicateKit

/// How one kind of queried record maps to SQL: where its rows come from, which column holds
/// each attribute, and how a row reads back. Items and diary entries are the two kinds
/// (`QuerySubject`); the planner and the runner are shared.
protocol RecordColumns {
    /// The schema predicates compile against.
    static var schema: SQLSchema { get }
    /// The FROM clause. It always joins `items`, whose scope and container filter every query.
    static var source: String { get }
    static var selectList: String { get }
    /// What orders rows after the requested sort keys, so every answer has one order.
    static var tieBreak: [String] { get }
    /// The SQL column an attribute sorts by, if it has a single one.
    static func sortColumn(_ attribute: String) -> String?
    /// Reads one row's attributes. Text content is fetched only when asked for.
    static func attributes(_ row: Row, db: Database, includeText: Bool) throws -> [String: AttributeValue]
}

extension RecordColumns {
    static func sortColumn(_ attribute: String) -> String? {
        guard case .scalar(let name, _, _)? = schema.columns[attribute] else { return nil }
        return name
    }

    /// One result item with the requested attributes.
    static func resultItem(_ row: Row, attributes requested: [String], db: Database) throws -> ResultItem {
        let all = try attributes(row, db: db, includeText: requested.contains(MetadataAttribute.textContent.name))
        var chosen: [String: AttributeValue] = [:]
        for name in requested { chosen[name] = all[name] ?? .null }
        return ResultItem(attributes: chosen, rawPath: ItemColumns.rawPath(row))
    }
}

extension QuerySubject {
    var columns: any RecordColumns.Type {
        switch self {
        case .items: ItemColumns.self
        case .diaryEntries: DiaryEntryColumns.self
        }
    }
}
