import APIModel
import Foundation
import MetadataIndex

/// A live update with its item already encoded, so that a query's update is encoded once
/// however many clients watch it. Its kind may still change (coalescing), so the item's
/// JSON is kept apart from the line around it.
struct EncodedUpdate: Sendable {
    var kind: LiveUpdateKind
    /// The item's raw path: its identity for coalescing.
    var key: [UInt8]
    var itemJSON: Data

    init(_ update: LiveUpdate) {
        kind = update.kind
        key = Array(update.item.rawPath)
        itemJSON = LiveLines.json(update.item)
    }
}

/// The NDJSON lines of `POST /v1/watch`: each a `LiveQueryLine`, keys sorted.
enum LiveLines {
    static func line(_ kind: LiveUpdateKind, itemJSON: Data) -> Data {
        // Equal to encoding LiveQueryLine(kind:item:) with sorted keys, without decoding
        // the item again.
        Data(#"{"item":"#.utf8) + itemJSON + Data(#","kind":"\#(kind.rawValue)"}"#.utf8) + newline
    }

    static func finishedGathering(count: Int) -> Data {
        json(LiveQueryLine(kind: .finishedGathering, count: count)) + newline
    }

    static func closed(reason: String) -> Data {
        json(LiveQueryLine(kind: .closed, reason: reason)) + newline
    }

    static func json(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)) ?? Data(#"{"error":"internal","message":"could not encode a line"}"#.utf8)
    }

    private static let newline = Data([0x0A])
}
