import Foundation
import Logging

/// A log handler that keeps every message, so a test can check what was reported.
struct RecordingLogHandler: LogHandler {
    final class Messages: @unchecked Sendable {
        private let lock = NSLock()
        private var records: [(level: Logger.Level, text: String)] = []

        func append(_ level: Logger.Level, _ text: String) {
            lock.withLock { records.append((level, text)) }
        }

        func texts(at level: Logger.Level) -> [String] {
            lock.withLock { records.filter { $0.level == level }.map(\.text) }
        }
    }

    let messages: Messages
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String,
             file: String, function: String, line: UInt) {
        messages.append(level, message.description)
    }

    static func logger() -> (Logger, Messages) {
        let messages = Messages()
        return (Logger(label: "test") { _ in RecordingLogHandler(messages: messages) }, messages)
    }
}
