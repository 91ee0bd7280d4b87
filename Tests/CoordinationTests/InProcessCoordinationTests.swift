import Foundation
import Testing
@testable import Coordination

/// Coordinators in one process: OFD locks belong to the open file description, so two
/// coordinators (or two threads of one) exclude each other as two processes do.
@Suite("Coordination in one process")
struct InProcessCoordinationTests {
    @Test("a reader and a writer in one process exclude each other")
    func twoCoordinatorsExclude() throws {
        let sandbox = try Sandbox()
        let first = try FileCoordinator(lockDirectory: sandbox.locks)
        let second = try FileCoordinator(lockDirectory: sandbox.locks)
        try first.coordinate(readingItemAt: sandbox.url("a/x")) { _ in
            #expect(throws: CoordinationError.self) {
                try second.coordinate(writingItemAt: sandbox.url("a"), timeout: .zero) { _ in }
            }
            try second.coordinate(readingItemAt: sandbox.url("a/x"), timeout: .zero) { _ in }
        }
        try second.coordinate(writingItemAt: sandbox.url("a"), timeout: .zero) { _ in }
    }

    @Test("one read claim on several items excludes a writer of each of them, not of a sibling")
    func readingSeveralItems() throws {
        let sandbox = try Sandbox()
        let reader = try FileCoordinator(lockDirectory: sandbox.locks)
        let writer = try FileCoordinator(lockDirectory: sandbox.locks)
        let items = [sandbox.url("a/x"), sandbox.url("a/y"), sandbox.url("b/z")]
        let handed = try reader.coordinate(readingItemsAt: items) { urls in
            for item in items + [sandbox.url("a"), sandbox.url("b")] {
                #expect(throws: CoordinationError.self, "\(item.path)") {
                    try writer.coordinate(writingItemAt: item, timeout: .zero) { _ in }
                }
            }
            try writer.coordinate(writingItemAt: sandbox.url("a/sibling"), timeout: .zero) { _ in }
            try writer.coordinate(readingItemAt: sandbox.url("a/x"), timeout: .zero) { _ in }
            return urls
        }
        #expect(handed == items)
        for item in items { try writer.coordinate(writingItemAt: item, timeout: .zero) { _ in } }
    }

    @Test("one write claim on several items excludes a reader of each of them and a writer of their folders, not a sibling")
    func writingSeveralItems() throws {
        let sandbox = try Sandbox()
        let writer = try FileCoordinator(lockDirectory: sandbox.locks)
        let other = try FileCoordinator(lockDirectory: sandbox.locks)
        let items = [sandbox.url("a/x"), sandbox.url("a/y"), sandbox.url("b/z")]
        let handed = try writer.coordinate(writingItemsAt: items) { urls in
            for item in items {
                #expect(throws: CoordinationError.self, "\(item.path)") {
                    try other.coordinate(readingItemAt: item, timeout: .zero) { _ in }
                }
            }
            for folder in [sandbox.url("a"), sandbox.url("b")] {
                #expect(throws: CoordinationError.self, "\(folder.path)") {
                    try other.coordinate(writingItemAt: folder, timeout: .zero) { _ in }
                }
            }
            try other.coordinate(writingItemAt: sandbox.url("a/sibling"), timeout: .zero) { _ in }
            return urls
        }
        #expect(handed == items)
        try other.coordinate(readingItemsAt: items, timeout: .zero) { _ in }
    }

    @Test("a timed-out write reports the code, the path and the reader holding it")
    func timeoutError() throws {
        let sandbox = try Sandbox()
        let holder = try FileCoordinator(lockDirectory: sandbox.locks)
        let waiter = try FileCoordinator(lockDirectory: sandbox.locks)
        try holder.coordinate(readingItemAt: sandbox.url("c/w")) { _ in
            let error = try #require(throws: CoordinationError.self) {
                try waiter.coordinate(writingItemAt: sandbox.url("c"), timeout: .milliseconds(50)) { _ in }
            }
            #expect(error.code == .timedOut)
            #expect(error.holders.map(\.pid) == [getpid()])
            #expect(error.holders.first?.access == .reading)
            #expect(error.message.contains(sandbox.url("c").path))
        }
    }

    @Test("a blocked call sleeps between attempts instead of spinning")
    func waitingCostsLittleCPU() throws {
        let sandbox = try Sandbox()
        let holder = try FileCoordinator(lockDirectory: sandbox.locks)
        let waiter = try FileCoordinator(lockDirectory: sandbox.locks)
        try holder.coordinate(writingItemAt: sandbox.url("a")) { _ in
            let cpuBefore = threadCPUNanoseconds(), wallBefore = monotonicNow()
            #expect(throws: CoordinationError.self) {
                try waiter.coordinate(readingItemAt: sandbox.url("a/x"), timeout: .milliseconds(400)) { _ in }
            }
            let cpu = threadCPUNanoseconds() - cpuBefore, wall = monotonicNow() - wallBefore
            #expect(wall >= 400_000_000)
            #expect(cpu < wall / 10, "waiting 400 ms used \(cpu / 1000) µs of CPU")
        }
    }

    @Test("cancel() fails a call blocked by another process with a cancellation error")
    func cancelUnblocksBlockingCall() throws {
        let sandbox = try Sandbox()
        let holder = try ProbeProcess.hold(locks: sandbox.locks, [("write", sandbox.url("a"))])
        try holder.expect("acquired")
        let waiter = try FileCoordinator(lockDirectory: sandbox.locks)
        let url = sandbox.url("a/x")
        let outcome = Outcome.onThread { try waiter.coordinate(readingItemAt: url) { _ in } }
        while waiter.blockedCallCount == 0 { usleep(200) }  // until the call is waiting
        waiter.cancel()
        #expect(outcome.wait() == .cancelled)
        try holder.release()
        try waiter.coordinate(readingItemAt: url, timeout: .seconds(10)) { _ in }
    }

    @Test("task cancellation fails a blocked async call with a cancellation error")
    func taskCancellationUnblocksAsyncCall() async throws {
        let sandbox = try Sandbox()
        let holder = try FileCoordinator(lockDirectory: sandbox.locks)
        let waiter = try FileCoordinator(lockDirectory: sandbox.locks)
        let url = sandbox.url("a/b/y")
        try await holder.coordinate(writingItemAt: url, byAsyncAccessor: { _ in
            let task = Task { () -> CoordinationError.Code? in
                do {
                    try await waiter.coordinate(writingItemAt: url, byAsyncAccessor: { _ in })
                    return nil
                } catch let error as CoordinationError {
                    return error.code
                }
            }
            while waiter.blockedCallCount == 0 { await Task.yield() }
            task.cancel()
            let code = try await task.value
            #expect(code == .cancelled)
        })
    }

    /// Also with a timeout of centuries: counted in Int nanoseconds, its deadline overflowed
    /// at the first wait (a trap), an app's "as long as it takes" spelled as a huge timeout.
    @Test("an async write waits for a reader and then runs", arguments: [nil, Duration.seconds(10_000_000_000)])
    func asyncWriteWaits(timeout: Duration?) async throws {
        let sandbox = try Sandbox()
        let reader = try FileCoordinator(lockDirectory: sandbox.locks)
        let writer = try FileCoordinator(lockDirectory: sandbox.locks, timeout: timeout)
        let url = sandbox.url("c/w")
        let write = try await reader.coordinate(readingItemAt: url, byAsyncAccessor: { _ -> Task<Bool, any Error> in
            let write = Task { try await writer.coordinate(writingItemAt: url, byAsyncAccessor: { _ in true }) }
            while writer.blockedCallCount == 0 { await Task.yield() }
            return write
        })
        #expect(try await write.value)
    }

    @Test("a caller waiting for a moved item receives its new URL")
    func waiterFollowsCoordinatedMove() async throws {
        let sandbox = try Sandbox()
        let mover = try FileCoordinator(lockDirectory: sandbox.locks)
        let reader = try FileCoordinator(lockDirectory: sandbox.locks)
        let source = sandbox.url("a/x"), destination = sandbox.url("c/moved")
        let read = try await mover.coordinate(
            writingItemAt: source, options: .forMoving, writingItemAt: destination, options: .forReplacing,
            byAsyncAccessor: { old, new -> Task<URL, any Error> in
                let read = Task { try await reader.coordinate(readingItemAt: old, byAsyncAccessor: { $0 }) }
                while reader.blockedCallCount == 0 { await Task.yield() }
                try FileManager.default.moveItem(at: old, to: new)
                try mover.item(at: old, didMoveTo: new)
                return read
            })
        #expect(try await read.value.path == destination.path)
    }

    @Test("threads sharing one coordinator never hold incompatible claims at once")
    func threadsShareOneCoordinator() throws {
        let sandbox = try Sandbox()
        let coordinator = try FileCoordinator(lockDirectory: sandbox.locks)
        let census = Census()
        let urls = [sandbox.url("a"), sandbox.url("a/x"), sandbox.url("a/b/y")]
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            var random = SeededGenerator(state: UInt64(thread + 1))
            for _ in 0..<150 {
                let index = Int.random(in: 0..<urls.count, using: &random)
                if Bool.random(using: &random) {
                    try? coordinator.coordinate(writingItemAt: urls[index]) { _ in census.visit(index, writing: true) }
                } else {
                    try? coordinator.coordinate(readingItemAt: urls[index]) { _ in census.visit(index, writing: false) }
                }
            }
        }
        #expect(census.violations == 0)
        #expect(census.visits == 600)
    }

    @Test("resolvesSymbolicLink claims and hands over the link's target")
    func resolvesSymbolicLink() throws {
        let sandbox = try Sandbox()
        let link = sandbox.url("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: sandbox.url("a/b/z"))
        let coordinator = try FileCoordinator(lockDirectory: sandbox.locks)
        let other = try FileCoordinator(lockDirectory: sandbox.locks)
        let target = try coordinator.coordinate(readingItemAt: link, options: .resolvesSymbolicLink) { $0 }
        #expect(target.path == sandbox.url("a/b/z").resolvingSymlinksInPath().path)
        try other.coordinate(writingItemAt: sandbox.url("a/b/z")) { _ in
            #expect(throws: CoordinationError.self) {
                try coordinator.coordinate(readingItemAt: link, options: .resolvesSymbolicLink, timeout: .zero) { _ in }
            }
            try coordinator.coordinate(readingItemAt: link, timeout: .zero) { #expect($0 == link) }
        }
    }
}

/// Counts who is inside which item (0 is the folder of 1 and 2) and notes any overlap that
/// the exclusion rules forbid.
final class Census: @unchecked Sendable {
    private let lock = NSLock()
    private var readers = [0, 0, 0], writers = [0, 0, 0]
    private(set) var violations = 0, visits = 0

    func visit(_ item: Int, writing: Bool) {
        lock.withLock {
            visits += 1
            if clashes(item, writing: writing) { violations += 1 }
            if writing { writers[item] += 1 } else { readers[item] += 1 }
        }
        usleep(50)
        lock.withLock { if writing { writers[item] -= 1 } else { readers[item] -= 1 } }
    }

    private func clashes(_ item: Int, writing: Bool) -> Bool {
        let ancestorWriter = item != 0 && writers[0] > 0
        guard writing else { return writers[item] > 0 || ancestorWriter }
        let below = item == 0 ? [1, 2] : []
        return readers[item] + writers[item] > 0 || ancestorWriter || below.contains { readers[$0] + writers[$0] > 0 }
    }
}

func threadCPUNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}
