import Foundation
import Logging
import SystemPackage

/// Writes log lines to standard error. Under systemd (`JOURNAL_STREAM` set) each line
/// starts with a `<N>` syslog priority, which journald turns into the entry's priority;
/// otherwise lines read as plain text with a time stamp.
///
/// The level comes from a shared ``LogLevelControl`` (a configuration reload changes it for
/// every logger), unless a logger sets its own.
public struct JournalLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    private let label: String
    private let journald: Bool
    private let control: LogLevelControl
    private var ownLevel: Logger.Level?

    public init(label: String, control: LogLevelControl, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.label = label
        self.control = control
        journald = environment["JOURNAL_STREAM"] != nil
    }

    public var logLevel: Logger.Level {
        get { ownLevel ?? control.level }
        set { ownLevel = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        let details = merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let line = journald
            ? "<\(Self.priority(event.level))>\(event.message)\(details)\n"
            : "\(Self.timestamp()) \(event.level) \(label): \(event.message)\(details)\n"
        Self.write(Array(line.utf8))
    }

    /// Writes a log line to standard error. One that cannot be written (a pipe whose
    /// reader went away) is dropped: FileHandle's write trapped on EPIPE, and the daemon
    /// must not end for its log.
    private static func write(_ bytes: [UInt8]) {
        _ = try? FileDescriptor.standardError.writeAll(bytes)
    }

    /// syslog priorities (sd-daemon.h): 2 crit, 3 err, 4 warning, 5 notice, 6 info, 7 debug.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .critical: return 2
        case .error: return 3
        case .warning: return 4
        case .notice: return 5
        case .info: return 6
        case .debug, .trace: return 7
        }
    }

    private static func timestamp() -> String {
        Date().formatted(.iso8601.time(includingFractionalSeconds: true))
    }
}
