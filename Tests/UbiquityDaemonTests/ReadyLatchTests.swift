import Testing

@testable import UbiquityDaemon

/// Work held back until READY (`ReadyLatch`) must go once the latch opens, whether it
/// waited before or comes after, and must not hang a shutdown that comes first. (A
/// broken latch hangs a test: the time limit turns that into a failure. It is far above
/// the whole run's 3 minutes: these tasks share the cooperative pool, two threads here,
/// with suites that block it, and a clean-clone CI run once took 127 s to finish one of
/// them against a limit of 1 minute.)
@Suite(.timeLimit(.minutes(10))) struct ReadyLatchTests {
    @Test func waitersBeforeTheOpeningGoWhenItOpens() async {
        let latch = ReadyLatch()
        let waiters = (0..<3).map { _ in Task { await latch.wait() } }
        for _ in 0..<10 { await Task.yield() }  // let them reach the latch (if they do not, the test still holds)
        latch.open()
        for waiter in waiters { await waiter.value }
    }

    @Test func aWaitAfterTheOpeningReturnsAtOnce() async {
        let latch = ReadyLatch()
        latch.open()
        await latch.wait()
        await latch.wait()
    }

    @Test func aCancelledWaitReturnsWhileTheLatchStaysShut() async {
        let latch = ReadyLatch()
        let waiter = Task { await latch.wait() }
        for _ in 0..<10 { await Task.yield() }  // most likely waiting by now: cancelled there
        waiter.cancel()
        await waiter.value
        let alreadyCancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await latch.wait()
        }
        await alreadyCancelled.value
    }
}
