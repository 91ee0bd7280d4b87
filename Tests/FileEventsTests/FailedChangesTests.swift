import FileEvents
import RawPaths
import Testing

/// Changes the index could not take come back later, each once, moves as rescans, with a
/// delay that grows while the failures go on and an error that lasts until all went in.
@Suite struct FailedChangesTests {
    let second: UInt64 = 1_000_000_000

    @Test func failedChangesComeBackOnceDueAndOnlyThen() {
        var failed = FailedChanges()
        #expect(failed.retryAt == nil && failed.lastError == nil)
        let delay = failed.failed([.look("a"), .look("b"), .look("a")], error: "disk full", at: 10 * second)
        #expect(delay == FailedChanges.firstDelay)
        #expect(failed.retryAt == 10 * second + delay)
        #expect(failed.takeDue(at: 10 * second + delay - 1).isEmpty)
        #expect(failed.takeDue(at: 10 * second + delay) == [.look("a"), .look("b")])
        #expect(failed.retryAt == nil)
        #expect(failed.takeDue(at: 100 * second).isEmpty, "taken once")
        #expect(failed.lastError == "disk full", "until the retried changes went in")
        failed.succeeded()
        #expect(failed.lastError == nil)
    }

    @Test func aHalfAppliedMoveComesBackAsRescansOfBothPlaces() {
        var failed = FailedChanges()
        failed.failed([.moved(from: "x", to: "y/x"), .rescan("x")], error: "EIO", at: 0)
        #expect(failed.takeDue(at: 60 * second) == [.rescan("x"), .rescan("y/x")])
    }

    @Test func theDelayDoublesWhileFailuresGoOnAndResetsAfterASuccess() {
        var failed = FailedChanges()
        var delays: [UInt64] = []
        for attempt in 0..<8 {
            delays.append(failed.failed([.look("a")], error: "full", at: UInt64(attempt) * 100 * second))
            _ = failed.takeDue(at: UInt64(attempt) * 100 * second + 60 * second)
        }
        #expect(delays.prefix(3) == [1, 2, 4].map { $0 * second }[...])
        #expect(delays.last == FailedChanges.longestDelay)
        failed.succeeded()
        #expect(failed.failed([.look("a")], error: "full", at: 0) == FailedChanges.firstDelay)
    }

    @Test func aSuccessWhileChangesStillWaitKeepsTheError() {
        var failed = FailedChanges()
        failed.failed([.look("a")], error: "full", at: 0)
        failed.succeeded()  // some later, unrelated batch went in
        #expect(failed.lastError == "full")
        #expect(failed.takeDue(at: 60 * second) == [.look("a")])
    }
}
