/// A metadata attribute's value as it crosses the local API.
///
/// JSON has no date type, so dates travel as ISO 8601 strings (what `ubq ls --json`
/// prints); a client that needs `Date`s knows from the attribute's name which ones are
/// dates (`MetadataAttribute`).
public enum AttributeValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    /// Seconds since 2001-01-01T00:00:00Z, as NSDate counts.
    case date(Double)
    case array([AttributeValue])
}

extension AttributeValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else {
            self = .array(try container.decode([AttributeValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .date(let value): try container.encode(ISO8601.format(referenceSeconds: value))
        case .array(let values): try container.encode(values)
        }
    }
}
