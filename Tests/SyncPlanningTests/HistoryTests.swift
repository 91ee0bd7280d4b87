import SyncPlanning
import TestSupport
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

    /// The heads are kept as records arrive; they must be what the definition gives
    /// (the records no record names as a parent), whatever the DAG and arrival order.
    @Test(arguments: 0..<40)
    func headsAndWinnerMatchTheirDefinitionForAnyArrivalOrder(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let count = Int.random(in: 1...30, using: &random)
        var records: [VersionRecord] = []
        for n in 0..<count {
            let parents = records.isEmpty ? [] : (0..<Int.random(in: 0...2, using: &random)).map { _ in records.randomElement(using: &random)!.id }
            let device = ["A", "B", "C"].randomElement(using: &random)!
            let state: EntryState? = Bool.random(using: &random) ? F.a : (Bool.random(using: &random) ? F.b : nil)
            records.append(F.record(F.id(device, UInt64(n + 1)), state, parents: Set(parents).sorted(), time: Int64.random(in: 0...5, using: &random)))
        }
        var history = PathHistory(path: F.path)
        for record in records.shuffled(using: &random) { history.add(record) }
        let named = Set(records.flatMap(\.parents))
        let expectedHeads = records.filter { !named.contains($0.id) }.sorted { $0.id < $1.id }
        #expect(history.heads == expectedHeads)
        #expect(history.headCount == expectedHeads.count)
        #expect(history.winner == WinnerRule.winner(of: expectedHeads))
        var inOrder = PathHistory(path: F.path)
        for record in records { inOrder.add(record) }
        #expect(inOrder == history, "the order records arrive in does not matter")
    }

    @Test func aLongChainHasItsLastVersionAsItsOnlyHead() {
        var history = PathHistory(path: F.path)
        var previous: VersionRecord?
        for n in 1...5_000 {
            let record = F.record(F.id("A", UInt64(n)), n.isMultiple(of: 2) ? F.a : F.b, parents: previous.map { [$0.id] } ?? [], time: Int64(n))
            history.add(record)
            previous = record
        }
        #expect(history.heads == [previous!] && history.winner == previous && history.conflicts.isEmpty)
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
