import Foundation
import Glibc
import Testing

/// Output to a reader that went away. `ubq ls | head -1` ends ubq as it ends any Unix tool,
/// by SIGPIPE and in silence; ubqd, whose log is such a pipe, drops the lines and goes on.
/// Both trapped in FileHandle's write, which fails hard on EPIPE (SwiftNIO ignores the
/// signal for its sockets), and printed a crash report.
@Suite struct BrokenPipeTests {
    /// A pipe whose reading end is closed: every write to it fails with EPIPE at once.
    static func pipeWithNoReader() -> Pipe {
        let pipe = Pipe()
        try? pipe.fileHandleForReading.close()
        return pipe
    }

    /// Runs the built `program` with its output going to `pipeWithNoReader()`; returns
    /// the ended process and what it wrote on standard error.
    static func runWithOutputGoneNowhere(_ program: String, _ arguments: [String], environment: [String: String]) throws -> (Process, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: DaemonHarness.binaries + "/" + program)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = pipeWithNoReader()
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process, said)
    }

    @Test func ubqWritingToAPipeWithNoReaderEndsBySIGPIPEQuietly() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        try daemon.shell("for n in 1 2 3; do echo $n > f$n.txt; done")
        #expect(try daemon.indexedItems().count == 3)

        let (ubq, said) = try Self.runWithOutputGoneNowhere("ubq", ["ls"], environment: daemon.environment)
        #expect(ubq.terminationReason == .uncaughtSignal && ubq.terminationStatus == SIGPIPE, "\(ubq.terminationReason) \(ubq.terminationStatus)")
        #expect(said.isEmpty, "\(said)")
    }

    @Test func ubqdWhoseLogReaderWentAwayKeepsRunning() throws {
        let daemon = try DaemonHarness()
        let notify = try NotifySocket(path: daemon.base + "/notify.sock")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: DaemonHarness.binaries + "/ubqd")
        process.environment = daemon.environment.merging(["NOTIFY_SOCKET": notify.path, "UBQ_LOG_LEVEL": "debug"]) { $1 }
        let log = Self.pipeWithNoReader()
        process.standardError = log
        process.standardOutput = log
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        _ = try notify.waitFor("READY=1")
        try daemon.shell("echo logged > f.txt")  // logs at debug level as it indexes
        #expect(try daemon.indexedItems().keys.contains(daemon.documents + "/f.txt"))
        #expect(process.isRunning)
        #expect(try daemon.ubq(["status"]).status == 0)
    }
}
