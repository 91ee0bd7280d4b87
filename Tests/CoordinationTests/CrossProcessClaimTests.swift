import Foundation
import Testing
@testable import Coordination

/// Claims between real processes: each probe takes a claim and reports it on its output.
/// "Blocked" is shown by a contender's timeout error, "not blocked" by its acquisition.
@Suite("Claims across processes")
struct CrossProcessClaimTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var holder: (mode: String, path: String)
        var contender: (mode: String, path: String)
        var blocks: Bool
        var testDescription: String {
            "\(holder.mode) \(holder.path.isEmpty ? "." : holder.path) \(blocks ? "blocks" : "lets")"
                + " \(contender.mode) \(contender.path.isEmpty ? "." : contender.path)"
        }
    }

    static let cases: [Case] = [
        Case(holder: ("read", "a/x"), contender: ("read", "a/x"), blocks: false),
        Case(holder: ("write", "a/x"), contender: ("read", "a/x"), blocks: true),
        Case(holder: ("write", "a/x"), contender: ("write", "a/x"), blocks: true),
        Case(holder: ("read", "a/x"), contender: ("write", "a/x"), blocks: true),
        Case(holder: ("write", "a"), contender: ("read", "a/b/y"), blocks: true),
        Case(holder: ("write", ""), contender: ("write", "c/w"), blocks: true),
        Case(holder: ("read", "a/b/y"), contender: ("write", "a"), blocks: true),
        Case(holder: ("write", "a/b/y"), contender: ("write", ""), blocks: true),
        Case(holder: ("read", "a/b/y"), contender: ("read", "a"), blocks: false),
        Case(holder: ("write", "a/x"), contender: ("write", "c/w"), blocks: false),
        Case(holder: ("write", "a/b/y"), contender: ("write", "a/b/z"), blocks: false),
    ]

    @Test("exclusion rules between two processes", arguments: cases)
    func exclusion(_ rule: Case) throws {
        let sandbox = try Sandbox()
        let holder = try ProbeProcess.hold(locks: sandbox.locks, [(rule.holder.mode, sandbox.url(rule.holder.path))])
        try holder.expect("acquired")
        let contender = try ProbeProcess.hold(
            locks: sandbox.locks, [(rule.contender.mode, sandbox.url(rule.contender.path))], timeout: rule.blocks ? 0.3 : 20)
        if rule.blocks {
            let line = try contender.expect("error")
            #expect(line.hasPrefix("error timedOut"), "\(line)")
        } else {
            try contender.expect("acquired")
            try contender.release()
        }
        try holder.release()
    }

    @Test("read-then-write shares its read item and excludes its written item")
    func readThenWrite() throws {
        let sandbox = try Sandbox()
        let holder = try ProbeProcess.hold(locks: sandbox.locks, [("read", sandbox.url("a/x")), ("write", sandbox.url("c/w"))])
        try holder.expect("acquired")
        let reader = try ProbeProcess.hold(locks: sandbox.locks, [("read", sandbox.url("a/x"))], timeout: 20)
        try reader.expect("acquired")
        let excluded = try ProbeProcess.hold(locks: sandbox.locks, [("read", sandbox.url("c/w"))], timeout: 0.2)
        #expect(try excluded.expect("error").hasPrefix("error timedOut"))
        try reader.release()
        try holder.release()
    }

    @Test("a timeout names the process holding the conflicting claim")
    func timeoutNamesHolder() throws {
        let sandbox = try Sandbox()
        let holder = try ProbeProcess.hold(locks: sandbox.locks, [("read", sandbox.url("a/b/y"))])
        try holder.expect("acquired")
        let contender = try ProbeProcess.hold(locks: sandbox.locks, [("write", sandbox.url("a"))], timeout: 0.2)
        let line = try contender.expect("error")
        #expect(line.contains("timedOut"))
        #expect(line.contains("pid \(holder.pid) (coordination-probe) reading"), "\(line)")
        #expect(line.contains(sandbox.url("a/b/y").resolvingSymlinksInPath().path), "\(line)")
        try holder.release()
    }

    @Test("a waiter gets the claim when the holder releases it")
    func waiterAcquiresAfterRelease() throws {
        let sandbox = try Sandbox()
        let holder = try ProbeProcess.hold(locks: sandbox.locks, [("write", sandbox.url("a"))])
        try holder.expect("acquired")
        let waiter = try ProbeProcess.hold(locks: sandbox.locks, [("read", sandbox.url("a/x"))])
        try waiter.expect("waiting")
        try holder.release()
        try waiter.expect("acquired")
        try waiter.release()
    }

    @Test("SIGKILL of a holder releases its claim at once")
    func killReleasesClaim() throws {
        let sandbox = try Sandbox()
        let holder = try ProbeProcess.hold(locks: sandbox.locks, [("write", sandbox.url("a/x")), ("write", sandbox.url("c"))])
        try holder.expect("acquired")
        let waiter = try ProbeProcess.hold(locks: sandbox.locks, [("write", sandbox.url("a/x"))])
        try waiter.expect("waiting")
        let killed = Date()
        holder.kill()
        try waiter.expect("acquired", within: 10)
        #expect(Date().timeIntervalSince(killed) < 5)
        try waiter.release()
    }

    @Test("write-and-write on two URLs in opposite orders by two processes never deadlocks")
    func oppositeOrdersDoNotDeadlock() throws {
        let sandbox = try Sandbox()
        let x = sandbox.url("a/x").path, w = sandbox.url("c/w").path
        let first = try ProbeProcess(["loop", "--locks", sandbox.locks.path, "--write", x, "--write", w, "--count", "300"])
        let second = try ProbeProcess(["loop", "--locks", sandbox.locks.path, "--write", w, "--write", x, "--count", "300"])
        #expect(try first.expect("done", within: 40) == "done 300")
        #expect(try second.expect("done", within: 40) == "done 300")
    }
}

@Suite("Writers are not starved")
struct WriterPreferenceTests {
    @Test("a waiting writer holds off new readers of the item until it has written")
    func waitingWriterQueuesNewReaders() throws {
        let sandbox = try Sandbox()
        let url = sandbox.url("a/x")
        let reader = try ProbeProcess.hold(locks: sandbox.locks, [("read", url)])
        try reader.expect("acquired")
        let writer = try FileCoordinator(lockDirectory: sandbox.locks)
        let outcome = Outcome.onThread { try writer.coordinate(writingItemAt: url, timeout: .seconds(30)) { _ in } }
        while writer.blockedCallCount == 0 { usleep(200) }  // the writer waits, so it has announced itself
        let late = try ProbeProcess.hold(locks: sandbox.locks, [("read", url)], timeout: 0.2)
        #expect(try late.expect("error").hasPrefix("error timedOut"))
        let folderReader = try ProbeProcess.hold(locks: sandbox.locks, [("read", sandbox.url("a"))], timeout: 20)
        try folderReader.expect("acquired")  // only readers of the item itself queue
        try folderReader.release()
        try reader.release()
        #expect(outcome.wait() == nil)
    }
}
