import Foundation
import Glibc

/// Runs the real `ubqd` on temporary folders and drives it with the real `ubq`.
final class DaemonHarness: @unchecked Sendable {
    let base: String
    let root: String
    let container = "iCloud~org~ubiquity~Default"
    private(set) var process: Process?
    private(set) var notify: NotifySocket?
    /// The environment the last `start` added, which `restart` gives again.
    private var startedWith: [String: String] = [:]
    private var logPath: String { base + "/ubqd.log" }

    /// The folder holding the built `ubqd` and `ubq`: next to the test bundle.
    static let binaries: String = {
        if let override = ProcessInfo.processInfo.environment["UBQ_BIN_DIR"] { return override }
        return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().path
    }()

    init() throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-it-\(UUID().uuidString.prefix(8))").path
        root = base + "/root"
        try FileManager.default.createDirectory(atPath: base + "/config", withIntermediateDirectories: true)
    }

    deinit {
        stop()
        Self.remove(base)
    }

    /// Removes a test's folder, unless `UBQ_TEST_KEEP=1` asks to keep it for a post-mortem
    /// (its path goes to stderr then).
    static func remove(_ folder: String) {
        guard ProcessInfo.processInfo.environment["UBQ_TEST_KEEP"] != "1" else {
            if FileManager.default.fileExists(atPath: folder) { FileHandle.standardError.write(Data("kept \(folder)\n".utf8)) }
            return
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    var containerFolder: String { root + "/" + container }
    var documents: String { containerFolder + "/Documents" }

    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["UBQ_ROOT"] = root
        environment["UBQ_STATE_DIR"] = base + "/state"
        environment["UBQ_RUNTIME_DIR"] = base + "/run"
        environment["XDG_CONFIG_HOME"] = base + "/config"
        environment["UBQ_LOG_LEVEL"] = "info"
        environment["UBQ_CONFIG"] = nil
        environment["JOURNAL_STREAM"] = nil
        return environment
    }

    /// Starts ubqd and returns once it has told systemd it is ready.
    func start(extraEnvironment: [String: String] = [:]) throws {
        startedWith = extraEnvironment
        let notify = try NotifySocket(path: base + "/notify-\(UUID().uuidString.prefix(6)).sock")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binaries + "/ubqd")
        process.environment = environment.merging(["NOTIFY_SOCKET": notify.path]) { $1 }.merging(extraEnvironment) { $1 }
        FileManager.default.createFile(atPath: logPath, contents: nil)
        let logFile = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        logFile.seekToEndOfFile()
        process.standardError = logFile
        process.standardOutput = logFile
        try process.run()
        self.process = process
        self.notify = notify
        do {
            _ = try notify.waitFor("READY=1") { process.isRunning ? nil : "it exited with status \(process.terminationStatus)" }
        } catch {
            throw HarnessError("\(error)\nubqd log:\n\(log())")
        }
    }

    /// Stops ubqd with SIGTERM and waits for it to exit.
    func stop() {
        guard let process, process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
        self.process = nil
    }

    /// Starts ubqd again as it was last started (on the same mirror, if it had one).
    func restart() throws {
        stop()
        try start(extraEnvironment: startedWith)
    }

    func log() -> String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    /// Waits until the daemon's log says `text` (an event the daemon reports only there).
    func waitForLog(_ text: String, timeout: Duration = .seconds(60)) throws {
        let deadline = ContinuousClock.now + timeout
        while !log().contains(text) {
            guard ContinuousClock.now < deadline else { throw HarnessError("ubqd never logged \"\(text)\" within \(timeout); log:\n\(log())") }
            usleep(50_000)
        }
    }

    /// Writes `text` as this daemon's config.toml (where `XDG_CONFIG_HOME` points), before
    /// its start or a reload.
    func writeConfig(_ text: String) throws {
        let folder = base + "/config/ubiquity"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/config.toml"))
    }

    /// Runs `ubq` with the harness's environment.
    @discardableResult
    func ubq(_ arguments: [String]) throws -> CommandResult {
        try CommandResult.run(Self.binaries + "/ubq", arguments, environment: environment)
    }

    /// Runs a shell command in the Documents folder (how a user edits files).
    @discardableResult
    func shell(_ script: String) throws -> CommandResult {
        let result = try CommandResult.run("/bin/bash", ["-c", script], environment: environment, directory: documents)
        guard result.status == 0 else { throw HarnessError("`\(script)` failed (\(result.status)): \(result.errorText)") }
        return result
    }
}

/// What a finished command printed.
struct CommandResult {
    var status: Int32
    var output: Data
    var error: Data
    var text: String { String(decoding: output, as: UTF8.self) }
    var errorText: String { String(decoding: error, as: UTF8.self) }

    static func run(_ executable: String, _ arguments: [String], environment: [String: String], directory: String? = nil) throws -> CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read both pipes to the end before waiting, so a large output cannot block the child.
        let errorData = ErrorReader(error.fileHandleForReading)
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandResult(status: process.terminationStatus, output: outputData, error: errorData.wait())
    }
}

/// Reads a pipe on another thread.
final class ErrorReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
