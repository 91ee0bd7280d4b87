import Foundation
import Testing
import Coordination

/// Where the `coordination-probe` executable was built: beside the test bundle (which
/// honours `--scratch-path`), else `$UBQ_COORDINATION_PROBE`, else `.build/debug` of the package.
enum ProbeBinary {
    static let url: URL = locate()

    private static func locate() -> URL {
        let manager = FileManager.default
        if let explicit = ProcessInfo.processInfo.environment["UBQ_COORDINATION_PROBE"] {
            return URL(fileURLWithPath: explicit)
        }
        var folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("coordination-probe")
            if manager.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return package.appendingPathComponent(".build/debug/coordination-probe")
    }
}

/// A failure of the harness itself (a probe that says nothing in time, or says too much).
struct ProbeFailure: Error, CustomStringConvertible {
    var description: String
}

/// One running probe, talked to line by line: the test waits for the lines it prints
/// (with a generous deadline that only guards against hanging), never for a fixed time.
final class ProbeProcess {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer: [UInt8] = []

    var pid: Int32 { process.processIdentifier }

    init(_ arguments: [String]) throws {
        process.executableURL = ProbeBinary.url
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        try process.run()
    }

    static func hold(locks: URL, _ items: [(String, URL)], timeout: Double? = nil) throws -> ProbeProcess {
        var arguments = ["hold", "--locks", locks.path]
        for (mode, url) in items { arguments += ["--\(mode)", url.path] }
        if let timeout { arguments += ["--timeout", String(timeout)] }
        return try ProbeProcess(arguments)
    }

    /// The next line the probe prints, waiting at most `seconds`.
    func nextLine(within seconds: Double = 30) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        let fd = output.fileHandleForReading.fileDescriptor
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            let remaining = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, remaining) > 0 else {
                throw ProbeFailure(description: "probe \(pid) printed no line within \(seconds) s")
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(fd, &chunk, chunk.count)
            guard count > 0 else { throw ProbeFailure(description: "probe \(pid) closed its output") }
            buffer += chunk[..<count]
        }
    }

    /// Waits for a line starting with `prefix`, skipping "waiting"; fails on any other line.
    @discardableResult
    func expect(_ prefix: String, within seconds: Double = 30) throws -> String {
        while true {
            let line = try nextLine(within: seconds)
            if line.hasPrefix(prefix) { return line }
            if line == "waiting" { continue }
            throw ProbeFailure(description: "probe \(pid) said \"\(line)\", expected \"\(prefix)…\"")
        }
    }

    func release() throws {
        input.fileHandleForWriting.write(Data("release\n".utf8))
        try expect("released")
    }

    func kill() {
        _ = Glibc.kill(pid, SIGKILL)
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning { kill() }
    }
}

/// A fresh folder for one test: a small tree of documents and a lock directory.
struct Sandbox: ~Copyable {
    let root: URL
    let locks: URL
    let documents: URL

    /// The names of the lock files there are now.
    func lockFiles() throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: locks.path))
    }

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-coordination-\(UUID().uuidString)")
        locks = root.appendingPathComponent("locks")
        documents = root.appendingPathComponent("Documents")
        for folder in ["a/b", "c"] {
            try FileManager.default.createDirectory(at: documents.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        for file in ["a/x", "a/b/y", "a/b/z", "c/w"] {
            try Data("entry\n".utf8).write(to: documents.appendingPathComponent(file))
        }
    }

    func url(_ relative: String) -> URL {
        relative.isEmpty ? documents : documents.appendingPathComponent(relative)
    }

    deinit { try? FileManager.default.removeItem(at: root) }
}

/// The result of a call made on another thread, handed back once.
final class Outcome: @unchecked Sendable {
    /// Runs `call` on a thread of its own; the outcome is its error's code, nil if none.
    static func onThread(_ call: @escaping @Sendable () throws -> Void) -> Outcome {
        let outcome = Outcome()
        Thread {
            do {
                try call()
                outcome.finish(nil)
            } catch {
                outcome.finish((error as? CoordinationError)?.code ?? CoordinationError.Code("other"))
            }
        }.start()
        return outcome
    }

    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var code: CoordinationError.Code?

    func finish(_ code: CoordinationError.Code?) {
        lock.withLock { self.code = code }
        done.signal()
    }

    func wait() -> CoordinationError.Code? {
        done.wait()
        return lock.withLock { code }
    }
}
