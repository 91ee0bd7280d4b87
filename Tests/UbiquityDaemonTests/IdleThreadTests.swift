import Foundation
import Synchronization
import Testing

@testable import UbiquityDaemon

/// The content reader's thread: its jobs run one after the other, in the idle scheduling
/// class, and it ends with its object once the jobs given before have run.
@Suite struct IdleThreadTests {
    /// SCHED_IDLE in linux/sched.h (Glibc's Swift module leaves the name out).
    static let idlePolicy: Int32 = 5

    @Test func jobsRunInOrderOnOneThreadInTheIdleClass() async {
        let thread = IdleThread(name: "idle-test-1")
        let seen = Mutex<[(job: Int, thread: String?, policy: Int32)]>([])
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            for job in 0..<20 {
                thread.async {
                    seen.withLock { $0.append((job, Thread.current.name, sched_getscheduler(0))) }
                    if job == 19 { finished.resume() }
                }
            }
        }
        let runs = seen.withLock { $0 }
        #expect(runs.map(\.job) == Array(0..<20))
        #expect(Set(runs.map(\.thread)) == ["idle-test-1"])
        #expect(runs.allSatisfy { $0.policy == Self.idlePolicy })
        #expect(sched_getscheduler(0) != Self.idlePolicy)  // the caller's class is untouched
    }

    @Test func theThreadEndsWithItsObjectAfterTheJobsGivenBefore() async throws {
        let name = "idle-test-2"
        let ran = Mutex(0)
        let release = DispatchSemaphore(value: 0)
        do {
            let thread = IdleThread(name: name)
            // The first job holds the thread until the object is gone, so that the jobs
            // after it are still to run when it ends.
            thread.async { release.wait() }
            for _ in 0..<5 { thread.async { ran.withLock { $0 += 1 } } }
            try await waitUntil("the thread runs", timeout: .seconds(30)) { Self.threadCount(named: name) == 1 }
        }
        release.signal()
        try await waitUntil("the thread ends", timeout: .seconds(30)) { Self.threadCount(named: name) == 0 }
        #expect(Self.threadCount(named: name) == 0)
        #expect(ran.withLock { $0 } == 5)
    }

    /// Threads of this process with `name` (their `comm`).
    static func threadCount(named name: String) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.count { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines) == name
        }
    }
}
