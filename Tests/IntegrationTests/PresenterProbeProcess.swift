import Foundation
import Glibc

/// A running `presenter-probe` (a presenter or a coordinated writer in its own process):
/// its stdout lines are read by a thread and handed to the test one by one, as they come.
final class PresenterProbeProcess: @unchecked Sendable {
    let process = Process()
    private let input = Pipe()
    private let lines = LineQueue()

    var pid: Int32 { process.processIdentifier }

    init(_ daemon: DaemonHarness, _ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: DaemonHarness.binaries + "/presenter-probe")
        process.arguments = arguments
        process.environment = daemon.environment
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        lines.readLines(from: output)
    }

    deinit { kill() }

    func kill() {
        if process.isRunning {
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// The next line; fails after `timeout` (a guard against a hang, not a wait for time).
    func next(timeout: Duration = .seconds(30)) throws -> String {
        guard let data = lines.pop(timeout: timeout) else {
            throw HarnessError("presenter-probe \(arguments) printed nothing within \(timeout) (running: \(process.isRunning))")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The next line that does not start with one of `skipping`.
    func next(skipping: [String], timeout: Duration = .seconds(30)) throws -> String {
        while true {
            let line = try next(timeout: timeout)
            if !skipping.contains(where: line.hasPrefix) { return line }
        }
    }

    private var arguments: [String] { process.arguments ?? [] }
}
