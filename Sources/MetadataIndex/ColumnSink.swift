import Foundation
import GRDB

/// Where `IndexWriter.appendColumns(of:parents:to:)` puts an item's column values, in the
/// order of `IndexWriter.insertedColumns`: an array of `DatabaseValue`s for a single
/// upsert, a flat batch (`NewRows`) for a bulk load. One function decides the values and
/// their order for both.
protocol ColumnSink {
    mutating func appendNull()
    mutating func append(_ value: Int64)
    mutating func append(_ value: Double)
    mutating func append(_ value: String)
    mutating func appendBlob(_ value: [UInt8])
    /// Text given as the UTF-8 of its two parts, one after the other (together valid
    /// UTF-8): a folder's and a name's, with no string made for the whole.
    mutating func appendText(_ head: some Collection<UInt8>, _ tail: some Collection<UInt8>)
}

extension ColumnSink {
    mutating func append(_ value: String?) {
        if let value { append(value) } else { appendNull() }
    }

    mutating func append(_ value: Double?) {
        if let value { append(value) } else { appendNull() }
    }

    mutating func appendBlob(_ value: [UInt8]?) {
        if let value { appendBlob(value) } else { appendNull() }
    }
}

extension Array: ColumnSink where Element == DatabaseValue {
    mutating func appendNull() { append(.null) }
    mutating func append(_ value: Int64) { append(value.databaseValue) }
    mutating func append(_ value: Double) { append(value.databaseValue) }
    mutating func append(_ value: String) { append(value.databaseValue) }
    mutating func appendBlob(_ value: [UInt8]) { append(Data(value).databaseValue) }

    mutating func appendText(_ head: some Collection<UInt8>, _ tail: some Collection<UInt8>) {
        append(String(decoding: [UInt8](head) + [UInt8](tail), as: UTF8.self))
    }
}
