@testable import Coordination
import Diary
import Foundation
import Testing
import TestSupport
@testable import Ubiquity

/// Opens and saves respect another process's coordinated claims (the `coordination-probe`
/// helper holds them, as `ubq coordinate` or ubqd would).
@Suite struct CoordinatedSaveTests {
    @Test func aSaveWaitsForAnotherProcessWriteClaimThenSucceeds() async throws {
        let sandbox = try DocumentSandbox()
        let url = sandbox.diaryURL
        let before = try await sandbox.writeDiary([Samples.first])
        let coordinator = try FileCoordinator(lockDirectory: sandbox.locks)
        let diary = DiaryDocument(fileURL: url, coordinator: coordinator)
        try await diary.open()
        diary.add(Samples.second)
        let probe = try ProbeClaim.hold(locks: sandbox.locks, "write", url)
        try probe.expect("acquired")

        let finished = Flag()
        let saving = Task { [diary] in
            try await diary.save(to: url, for: .forOverwriting)
            finished.set()
            return diary.documentState
        }
        var deadline = StallAwareDeadline(.seconds(30))
        while coordinator.blockedCallCount == 0 && !deadline.hasPassed { try await deadline.sleep() }
        #expect(coordinator.blockedCallCount == 1, "the save never waited for the probe's claim")
        #expect(!finished.isSet)
        #expect(try Data(contentsOf: url) == before)
        try probe.release()
        #expect(try await saving.value == .normal)
        #expect(try DiaryArchive.decode(Array(Data(contentsOf: url))) == [Samples.first, Samples.second])
    }

    @Test(arguments: ["read", "write"])
    func aSaveThatCannotGetItsClaimInTimeFailsAndKeepsTheFile(heldAccess: String) async throws {
        let sandbox = try DocumentSandbox()
        let before = try await sandbox.writeDiary([Samples.first])
        let diary = sandbox.diary(coordinator: try FileCoordinator(lockDirectory: sandbox.locks, timeout: .milliseconds(200)))
        try await diary.open()
        diary.add(Samples.third)
        let probe = try ProbeClaim.hold(locks: sandbox.locks, heldAccess, sandbox.diaryURL)
        try probe.expect("acquired")
        defer { try? probe.release() }

        let error = await #expect(throws: DocumentError.self) { try await diary.save(to: sandbox.diaryURL, for: .forOverwriting) }
        #expect(error?.code == .coordinationFailed)
        #expect((error?.underlying as? CoordinationError)?.code == .timedOut)
        #expect(error?.message.contains("coordination-probe") == true)  // names who holds the claim
        #expect(diary.documentState == .savingError)
        #expect(try Data(contentsOf: sandbox.diaryURL) == before)
    }

    @Test func anOpenWaitsWhileAnotherProcessWrites() async throws {
        let sandbox = try DocumentSandbox()
        try await sandbox.writeDiary([Samples.first])
        let probe = try ProbeClaim.hold(locks: sandbox.locks, "write", sandbox.diaryURL)
        try probe.expect("acquired")
        defer { try? probe.release() }
        let diary = sandbox.diary(coordinator: try FileCoordinator(lockDirectory: sandbox.locks, timeout: .milliseconds(100)))
        let error = await #expect(throws: DocumentError.self) { try await diary.open() }
        #expect(error?.code == .coordinationFailed)
        #expect(diary.documentState == .closed)
    }
}

/// Set once, read from anywhere.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

/// A `coordination-probe hold` process, talked to line by line (waiting on its output, with
/// a deadline that only guards against a hang).
final class ProbeClaim {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer: [UInt8] = []

    static func hold(locks: URL, _ access: String, _ url: URL) throws -> ProbeClaim {
        try ProbeClaim(["hold", "--locks", locks.path, "--\(access)", url.path])
    }

    private init(_ arguments: [String]) throws {
        process.executableURL = BuiltProducts.url("coordination-probe")
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        try process.run()
    }

    /// Waits for a line starting with `prefix` (skipping "waiting").
    func expect(_ prefix: String, within seconds: Int32 = 30) throws {
        while true {
            let line = try nextLine(within: seconds)
            if line.hasPrefix(prefix) { return }
            guard line == "waiting" else { throw ProbeError(description: "probe said \"\(line)\", expected \(prefix)") }
        }
    }

    func release() throws {
        input.fileHandleForWriting.write(Data("release\n".utf8))
        try expect("released")
        process.waitUntilExit()
    }

    private func nextLine(within seconds: Int32) throws -> String {
        let descriptor = output.fileHandleForReading.fileDescriptor
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                defer { buffer.removeSubrange(...newline) }
                return String(decoding: buffer[..<newline], as: UTF8.self)
            }
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&request, 1, seconds * 1000) > 0 else { throw ProbeError(description: "probe silent for \(seconds) s") }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(descriptor, &chunk, chunk.count)
            guard count > 0 else { throw ProbeError(description: "probe closed its output") }
            buffer += chunk[..<count]
        }
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

struct ProbeError: Error, CustomStringConvertible {
    var description: String
}
