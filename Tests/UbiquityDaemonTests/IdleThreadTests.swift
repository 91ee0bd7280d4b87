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

    /// Waits for the thread's end as an event: in CI, with other suites keeping both cores
    /// busy, polling `/proc` for the idle thread's end once timed out after 65 s.
    @Test(.timeLimit(.minutes(10))) func theThreadEndsWithItsObjectAfterTheJobsGivenBefore() async throws {
        let ran = Mutex(0)
        let release = DispatchSemaphore(value: 0)
        let (ends, end) = AsyncStream<Void>.makeStream()
        do {
            let thread = IdleThread(name: "idle-test-2", ended: { end.finish() })
            // The first job holds the thread until the object is gone, so that the jobs
            // after it are still to run when it ends.
            thread.async { release.wait() }
            for _ in 0..<5 { thread.async { ran.withLock { $0 += 1 } } }
        }
        #expect(ran.withLock { $0 } == 0)
        release.signal()
        for await _ in ends {}
        #expect(ran.withLock { $0 } == 5)
    }
}
