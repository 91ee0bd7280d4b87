import Testing

@testable import SyncEngine

/// When a burst of local deletions counts as over, and how the guard weighs it.
@Suite struct DeletionBurstTests {
    let start = ContinuousClock.now

    @Test func aBurstEndsOnceNoNewDeletionAppearedForTheQuietPeriod() {
        var burst = DeletionBurst()
        let steps: [(deletions: [String], after: Duration, ended: Bool)] = [
            (["a"], .zero, false),
            (["a"], .milliseconds(900), false),
            (["a", "b"], .milliseconds(1_100), false),  // b is new
            (["a", "b"], .milliseconds(2_100), true),
        ]
        for step in steps {
            let ended = burst.hasEnded(noting: step.deletions, quiet: .seconds(1), at: start + step.after)
            #expect(ended == step.ended, "after \(step.after)")
        }
    }

    @Test func withoutAQuietPeriodEveryBurstHasEnded() {
        var burst = DeletionBurst()
        let ended = burst.hasEnded(noting: ["a"], quiet: .zero, at: start)
        #expect(ended)
    }

    @Test func publishedDeletionsCountWithinTheWindowOnly() {
        var recent = RecentDeletions()
        recent.add(15, at: start)
        recent.add(0, at: start)
        let soon = recent.count(within: .seconds(60), at: start + .seconds(30))
        let later = recent.count(within: .seconds(60), at: start + .seconds(61))
        #expect(soon == 15 && later == 0)
    }
}
