import APIModel
import Foundation

/// Prints a live query's stream: as a table and one line per update, or as NDJSON whose
/// items have the shape of `ubq ls --json` items.
struct WatchPrinter {
    let attributes: [String]
    let json: Bool
    private var gathered: [ResultItem] = []
    /// Why ubqd ended the stream, once it did.
    private(set) var closedReason: String?

    init(attributes: [String], json: Bool) {
        self.attributes = attributes
        self.json = json
    }

    mutating func handle(_ line: Data) {
        guard let message = try? JSONDecoder().decode(LiveQueryLine.self, from: line) else {
            return Output.error("unreadable line from ubqd: \(String(decoding: line, as: UTF8.self))")
        }
        if json { printJSON(message) } else { printText(message) }
        if message.kind == .closed { closedReason = message.reason ?? "no reason given" }
    }

    private func printJSON(_ message: LiveQueryLine) {
        var object: [String: JSONLine] = ["kind": .string(message.kind.rawValue)]
        if let item = message.item { object["item"] = .attributes(item.attributes) }
        if let count = message.count { object["count"] = .int(count) }
        if let reason = message.reason { object["reason"] = .string(reason) }
        Output.line(JSONLine.encode(object))
    }

    private mutating func printText(_ message: LiveQueryLine) {
        switch message.kind {
        case .gathered:
            if let item = message.item { gathered.append(item) }
        case .finishedGathering:
            try? ListingPrinter(attributes: attributes).print(gathered, json: false, print0: false)
            gathered = []
            Output.error("watching for changes (\(message.count ?? 0) items gathered); Ctrl-C stops")
        case .added, .changed, .removed:
            guard let item = message.item else { return }
            let cells = attributes.map { ListingPrinter.cell(item.attributes[$0] ?? .null) }
            Output.line(([message.kind.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)] + cells).joined(separator: "  "))
        case .closed:
            break
        }
    }
}

/// A value of a printed NDJSON line.
private enum JSONLine: Encodable {
    case string(String)
    case int(Int)
    case attributes([String: AttributeValue])

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .attributes(let value): try container.encode(value)
        }
    }

    static func encode(_ object: [String: JSONLine]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(object)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
