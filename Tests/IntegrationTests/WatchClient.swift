import Foundation
import Glibc

/// A running `ubq ls --watch --json`, whose NDJSON lines a test reads one by one as they
/// arrive (a thread reads the pipe; `next` waits for a line, never for a fixed time).
final class WatchClient: @unchecked Sendable {
    let process = Process()
    private let lines = LineQueue()
    private let errors = Pipe()

    init(_ daemon: DaemonHarness, _ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: DaemonHarness.binaries + "/ubq")
        process.arguments = ["ls", "--watch", "--json", "--attrs", "kMDItemFSName,kMDItemFSSize,kMDItemPath"] + arguments
        process.environment = daemon.environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        lines.readLines(from: output)
    }

    deinit { stop() }

    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// The next line, decoded; fails after `timeout` or when ubq exits first.
    func next(timeout: Duration = .seconds(30)) throws -> WatchLine {
        guard let data = lines.pop(timeout: timeout) else {
            let stderr = process.isRunning ? "" : String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw HarnessError("no line from ubq ls --watch within \(timeout) (running: \(process.isRunning)) \(stderr)")
        }
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw HarnessError("not a JSON object: \(String(decoding: data, as: UTF8.self))")
        }
        return WatchLine(object: object)
    }

    /// Reads the gathering phase: the names gathered, checked against the end marker's count.
    func gathered() throws -> [String] {
        var names: [String] = []
        while true {
            let line = try next()
            if line.kind == "finished-gathering" {
                guard line.count == names.count else { throw HarnessError("gathered \(names.count) items, marker says \(line.count ?? -1)") }
                return names
            }
            guard line.kind == "gathered", let name = line.name else { throw HarnessError("unexpected line while gathering: \(line.object)") }
            names.append(name)
        }
    }
}

/// One NDJSON line of `ubq ls --watch --json`.
struct WatchLine: CustomStringConvertible {
    let object: [String: Any]
    var kind: String? { object["kind"] as? String }
    var item: [String: Any]? { object["item"] as? [String: Any] }
    var name: String? { item?["kMDItemFSName"] as? String }
    var size: Int? { item?["kMDItemFSSize"] as? Int }
    var count: Int? { object["count"] as? Int }
    /// "added c.txt": what most tests compare.
    var summary: String { "\(kind ?? "?") \(name ?? "?")" }
    var description: String { "\(object)" }
}

/// Lines handed from the reader thread to the test.
final class LineQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var lines: [Data] = []
    private var finished = false

    /// Splits what `pipe` delivers into lines on a thread of its own, until end of file.
    func readLines(from pipe: Pipe) {
        Thread.detachNewThread { [self] in
            var buffer = Data()
            while case let chunk = pipe.fileHandleForReading.availableData, !chunk.isEmpty {
                buffer += chunk
                while let newline = buffer.firstIndex(of: 0x0A) {
                    push(Data(buffer[buffer.startIndex..<newline]))
                    buffer = Data(buffer[(newline + 1)...])
                }
            }
            finish()
        }
    }

    func push(_ line: Data) {
        condition.withLock {
            lines.append(line)
            condition.signal()
        }
    }

    func finish() {
        condition.withLock {
            finished = true
            condition.broadcast()
        }
    }

    func pop(timeout: Duration) -> Data? {
        let deadline = Date().addingTimeInterval(Double(timeout.components.seconds))
        return condition.withLock {
            while lines.isEmpty && !finished && Date() < deadline {
                _ = condition.wait(until: deadline)  // may wake early: the loop checks again
            }
            return lines.isEmpty ? nil : lines.removeFirst()
        }
    }
}
