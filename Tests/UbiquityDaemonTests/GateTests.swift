import Testing

@testable import UbiquityDaemon

/// A `Gate` holds waits back while it is shut, as many openings as shuttings: the sync
/// service shuts the content reader's gate for each long pass, and a waiter must neither
/// go early nor stay behind once it opens (nor hang a shutdown). The time limit is as
/// generous as `ReadyLatchTests`' for the same reason: a broken gate hangs a test.
@Suite(.timeLimit(.minutes(10))) struct GateTests {
    @Test func aWaiterGoesOnlyWhenEveryShuttingIsUndone() async throws {
        let gate = Gate(shut: false)
        gate.shut()
        gate.shut()
        let waiter = Task { await gate.wait() }
        try await waitUntil("a waiter parks") { gate.waiting == 1 }
        gate.open()
        #expect(gate.waiting == 1, "shut twice, opened once: still held")
        gate.open()
        await waiter.value
        #expect(gate.waiting == 0)
    }

    @Test func anOpenGateLetsWaitsThroughAndStaysOpenWhenOpenedAgain() async {
        let gate = Gate(shut: false)
        await gate.wait()
        gate.open()  // unmatched: the gate stays open, not "more open"
        gate.shut()
        gate.open()
        await gate.wait()
    }

    @Test func aCancelledWaitReturnsWhileTheGateStaysShut() async throws {
        let gate = Gate(shut: true)
        let waiter = Task { await gate.wait() }
        try await waitUntil("a waiter parks") { gate.waiting == 1 }
        waiter.cancel()
        await waiter.value
        #expect(gate.waiting == 0, "the cancelled waiter is gone")
        let later = Task { await gate.wait() }
        try await waitUntil("a waiter parks") { gate.waiting == 1 }
        gate.open()
        await later.value
    }

    @Test func aWaitForEitherOfTwoGatesEndsWhenOneOpens() async throws {
        let (sync, awaited) = (Gate(shut: true), Gate(shut: true))
        let waiter = Task { await Gate.firstOpen(sync, awaited) }
        try await waitUntil("it waits at both gates") { sync.waiting == 1 && awaited.waiting == 1 }
        awaited.open()
        await waiter.value
        #expect(sync.waiting == 0, "the wait at the gate still shut is given up")
        await Gate.firstOpen(sync, awaited)  // one is open: at once
    }
}
