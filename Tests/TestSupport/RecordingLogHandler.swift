import Foundation
import Logging

/// A log handler that keeps every message, so a test can check what was reported.
public struct RecordingLogHandler: LogHandler {
    public final class Messages: @unchecked Sendable {
        private let lock = NSLock()
        private var records: [(level: Logger.Level, text: String)] = []

        public init() {}

        public func append(_ level: Logger.Level, _ text: String) {
            lock.withLock { records.append((level, text)) }
        }

        public func texts(at level: Logger.Level) -> [String] {
            lock.withLock { records.filter { $0.level == level }.map(\.text) }
        }
    }

    public let messages: Messages
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .trace

    public init(messages: Messages) {
        self.messages = messages
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(
        level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String, function: String, line: UInt
    ) {
        messages.append(level, message.description)
    }

    public static func logger() -> (Logger, Messages) {
        let messages = Messages()
        return (Logger(label: "test") { _ in RecordingLogHandler(messages: messages) }, messages)
    }
}
