import ArgumentParser
import CommandLineSettings
import DaemonClient
import Foundation
import SystemPackage
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
    /// status (`exitCode(for:)`).
    static func reportingErrors<T>(_ body: () async throws(DaemonClientError) -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            Output.error(error.message)
            throw ExitCode(exitCode(for: error))
        }
    }

    /// The sysexits codes `ubq` uses: 69 (unavailable) when no ubqd answers, 78
    /// (configuration) when sync is off for want of a mirror, 75 (try again later) when
    /// the mirror cannot be used now (not mounted), as `ubq sync` documents; 1 for the rest.
    static func exitCode(for error: DaemonClientError) -> Int32 {
        if error.code == .notRunning { return 69 }
        if error.apiError?.error == "sync", error.status == 503 { return 75 }
        return error.apiError?.error == "no-mirror" ? 78 : 1
    }
}

/// Writing to standard output and error without Swift's `print` buffering surprises.
enum Output {
    static func line(_ text: String) {
        write(Array((text + "\n").utf8), to: STDOUT_FILENO)
    }

    static func bytes(_ data: Data) {
        write(Array(data), to: STDOUT_FILENO)
    }

    /// A message: escaped, since it may quote a file's name (`Table.terminalSafe`).
    static func error(_ text: String) {
        write(Array(("ubq: " + Table.terminalSafe(text, keepingLayout: true) + "\n").utf8), to: STDERR_FILENO)
    }

    /// Writes all of `bytes`. A reader that went away (`ubq ls | head -1`) ends ubq as it
    /// ends any Unix tool, by SIGPIPE, quietly: SwiftNIO ignores the signal for its
    /// sockets, and FileHandle's write then trapped on EPIPE, with a crash report.
    static func write(_ bytes: [UInt8], to fd: Int32) {
        do {
            _ = try FileDescriptor(rawValue: fd).writeAll(bytes)
        } catch Errno.brokenPipe {
            signal(SIGPIPE, SIG_DFL)
            raise(SIGPIPE)
            exit(128 + SIGPIPE)
        } catch {
            // Nowhere to say it: what could not be written is lost, as with print.
        }
    }

    static func json(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        line(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
