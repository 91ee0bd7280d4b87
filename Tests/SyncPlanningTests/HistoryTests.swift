import SyncPlanning
import Testing

@Suite("PathHistory and the winner rule")
struct HistoryTests {
    typealias F = Fixture

    @Test func aSingleChainHasOneHeadAndNoConflict() {
        let history = F.history(F.v0, F.bOnB)
        #expect(history.heads.map(\.id) == [F.bOnB.id])
        #expect(history.winner == F.bOnB)
        #expect(history.conflicts.isEmpty)
    }

    @Test func aLoneRecordIsTheHeadAndASecondJoinsItWhateverTheOrder() {
        let lone = F.history(F.v0)
        #expect(lone.heads == [F.v0] && lone.winner == F.v0 && lone.conflicts.isEmpty)
        #expect(lone.record(F.v0.id) == F.v0 && lone.record(F.bOnB.id) == nil)
        var twice = lone
        twice.add(F.v0)
        #expect(twice == lone && twice.records == [F.v0], "a record read again (a restart) changes nothing")
        let both = F.history(F.v0, F.bOnB)
        #expect(both == F.history(F.bOnB, F.v0), "the order records arrive in does not matter")
        #expect(both.records.count == 2 && both.record(F.v0.id) == F.v0 && both.record(F.bOnB.id) == F.bOnB)
    }

    @Test func concurrentEditsKeepTheLoserAsAConflict() {
        let history = F.history(F.v0, F.bOnB, F.cOnC)
        #expect(history.winner == F.cOnC, "the later change wins")
        #expect(history.conflicts == [F.bOnB])
    }

    @Test func anEditBeatsAConcurrentDeleteWhateverTheClock() {
        let laterDelete = F.record(F.id("C", 1), nil, parents: [F.v0.id], time: 99_000)
        let history = F.history(F.v0, F.bOnB, laterDelete)
        #expect(history.winner == F.bOnB)
        #expect(history.conflicts.isEmpty, "a losing deletion is not a version to keep")
    }

    @Test func equalTimesAreSettledByTheVersionID() {
        let one = F.record(F.id("B", 1), F.b, parents: [F.v0.id], time: 5)
        let two = F.record(F.id("C", 1), F.c, parents: [F.v0.id], time: 5)
        #expect(F.history(F.v0, one, two).winner == two)
        #expect(F.history(F.v0, two, one).winner == two, "the order records arrive in does not matter")
    }

    @Test func sameContentHeadsAreNotAConflict() {
        let twin = F.record(F.id("C", 1), F.b, parents: [F.v0.id], time: 1)
        #expect(F.history(F.v0, F.bOnB, twin).conflicts.isEmpty)
    }

    @Test func aResolutionNamingEveryHeadEndsTheConflict() {
        let resolution = F.record(F.id("A", 2), F.b, parents: [F.bOnB.id, F.cOnC.id], time: 4_000)
        let history = F.history(F.v0, F.bOnB, F.cOnC, resolution)
        #expect(history.heads == [resolution])
        #expect(history.conflicts.isEmpty)
    }

    @Test func addingARecordTwiceChangesNothing() {
        var history = F.history(F.v0, F.bOnB)
        let before = history
        history.add(F.bOnB)
        #expect(history == before)
    }

    @Test func commonAncestorOfTwoConcurrentEditsIsTheirParent() {
        let history = F.history(F.v0, F.bOnB, F.cOnC)
        #expect(history.commonAncestor(of: F.bOnB.id, F.cOnC.id) == F.v0)
        let unrelated = F.record(F.id("D", 1), F.c)
        #expect(F.history(F.v0, unrelated).commonAncestor(of: F.v0.id, unrelated.id) == nil)
    }

    @Test(arguments: ["DEV-1:42", "a:b:7"])
    func versionIDsRoundTripThroughText(_ text: String) throws {
        let id = try #require(VersionID(text))
        #expect(id.description == text)
    }

    @Test(arguments: ["", ":1", "dev:", "dev:x", "dev"])
    func malformedVersionIDsAreRejected(_ text: String) {
        #expect(VersionID(text) == nil)
    }
}
