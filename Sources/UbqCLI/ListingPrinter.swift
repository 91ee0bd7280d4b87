import APIModel
import Foundation

/// Prints query results as a table, as JSON, or as NUL-separated raw paths.
struct ListingPrinter {
    let attributes: [String]

    func print(_ items: [ResultItem], json: Bool, print0: Bool) throws {
        if print0 {
            for item in items { Output.bytes(item.rawPath + Data([0])) }
        } else if json {
            try Output.json(items.map(\.attributes))
        } else {
            let rows = items.map { item in attributes.map { Self.cell(item.attributes[$0] ?? .null) } }
            let numeric = Set(attributes.indices.filter { MetadataAttribute.named(attributes[$0])?.type == .integer })
            Output.line(Table.render(header: attributes.map(Self.heading), rows: rows, rightAligned: numeric))
        }
    }

    /// `kMDItemFSSize` → `FSSize`, `ubqDiaryEntryID` → `DiaryEntryID`: the table's column heading.
    static func heading(_ attribute: String) -> String {
        for prefix in ["kMDItem", "NSMetadataUbiquitousItem", "ubq"] where attribute.hasPrefix(prefix) {
            return String(attribute.dropFirst(prefix.count))
        }
        return attribute
    }

    static func cell(_ value: AttributeValue) -> String {
        switch value {
        case .null: return "-"
        case .bool(let value): return value ? "yes" : "no"
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return Table.terminalSafe(value)
        case .date(let value): return ISO8601.format(referenceSeconds: value).prefix(19).replacingOccurrences(of: "T", with: " ")
        case .array(let values): return values.map(cell).joined(separator: ",")
        }
    }
}
