import ArgumentParser
import CommandLineSettings
import DaemonClient
import Foundation
import UbiquitySettings

/// What every daemon-talking subcommand shares: settings resolution and error reporting.
struct Connection {
    let settings: Settings
    let client: DaemonClient

    init(_ options: SettingsOptions) throws {
        settings = try options.resolve()
        client = DaemonClient(socketPath: settings.socketPath)
    }

    /// Runs a call, turning a daemon error into a message on standard error and an exit
    /// status: 69 (EX_UNAVAILABLE) when ubqd is not running, 1 otherwise.
    static func reportingErrors<T>(_ body: () async throws(DaemonClientError) -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            Output.error(error.message)
            throw ExitCode(error.code == .notRunning ? 69 : 1)
        }
    }
}

/// Writing to standard output and error without Swift's `print` buffering surprises.
enum Output {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func bytes(_ data: Data) {
        FileHandle.standardOutput.write(data)
    }

    /// A message: escaped, since it may quote a file's name (`Table.terminalSafe`).
    static func error(_ text: String) {
        FileHandle.standardError.write(Data(("ubq: " + Table.terminalSafe(text, keepingLayout: true) + "\n").utf8))
    }

    static func json(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        line(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
