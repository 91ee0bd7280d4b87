import Foundation
import Testing
import PredicateKit

/// One row of `shared/fixtures/predicates/cases.jsonl`, read with Foundation's
/// JSONSerialization, independently of the library's own `PredicateJSON`.
struct FixtureCase: Sendable, CustomTestStringConvertible {
    enum Expected: Sendable, Equatable {
        case result(Bool), parseError, evaluationError
    }

    var id: Int
    var format: String
    var object: PredicateValue
    var variables: [String: PredicateValue]
    var expected: Expected
    /// The whole JSON line, to cross-check `PredicateJSON` (re-serializing `object` would
    /// lose the difference between `40.0` and `40`).
    var line: String

    var testDescription: String { "#\(id) \(format)" }

    static let fixturesDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/fixtures/predicates")

    static let all: [FixtureCase] = {
        let url = fixturesDirectory.appendingPathComponent("cases.jsonl")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { FixtureCase(line: String($0)) }
    }()

    init?(line: String) {
        guard let row = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let id = row["id"] as? Int, let format = row["format"] as? String
        else { return nil }
        self.id = id
        self.format = format
        object = Self.value(row["object"] ?? NSNull())
        if case .dictionary(let variables) = Self.value(row["variables"] ?? NSNull()) { self.variables = variables } else { variables = [:] }
        self.line = line
        switch row["expected"] {
        case let text as String where text == "PARSE_ERROR": expected = .parseError
        case let text as String where text == "EVAL_ERROR": expected = .evaluationError
        case let number as NSNumber: expected = .result(number.boolValue)
        default: return nil
        }
    }

    /// The fixture convention: `{"$date": t}`, `{"$set": [...]}`, integers `.int`, other
    /// numbers `.double`, booleans (Foundation's `__NSCFBoolean`, objCType "c") `.bool`.
    static func value(_ json: Any) -> PredicateValue {
        switch json {
        case is NSNull: return .null
        case let text as String: return .string(text)
        case let number as NSNumber:
            switch String(cString: number.objCType) {
            case "c", "B": return .bool(number.boolValue)
            case "d", "f": return .double(number.doubleValue)
            default: return .int(number.int64Value)
            }
        case let array as [Any]: return .array(array.map(value))
        case let dictionary as [String: Any]:
            if dictionary.count == 1, let date = dictionary["$date"] as? NSNumber { return .date(date.doubleValue) }
            if dictionary.count == 1, let set = dictionary["$set"] as? [Any] { return .set(set.map(value)) }
            return .dictionary(dictionary.mapValues(value))
        default: return .null
        }
    }
}
