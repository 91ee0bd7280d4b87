import SyncPlanning
import Testing

@Suite("History retention")
struct RetentionTests {
    typealias F = Fixture
    static let day: Int64 = 86_400_000
    static let thirtyDays = HistoryRetention.days(30)

    @Test func aReplacedVersionIsKeptForTheRetentionAfterItWasReplacedNotAfterItWasMade() {
        let history = F.history(F.v0, F.bOnB)  // v0 made at 1 s, replaced at 2 s
        #expect(Self.thirtyDays.keeps(F.v0, in: history, now: 2_000 + 30 * Self.day - 1))
        #expect(!Self.thirtyDays.keeps(F.v0, in: history, now: 2_000 + 30 * Self.day))
        #expect(HistoryRetention.forever.keeps(F.v0, in: history, now: 1_000 * Self.day))
    }

    @Test func headsAreKeptForeverCurrentConflictingAndDeleted() {
        let conflict = F.history(F.v0, F.bOnB, F.cOnC)
        let deleted = F.history(F.v0, F.deletedOnB)
        let longAfter = 1_000 * Self.day
        #expect(Self.thirtyDays.keeps(F.cOnC, in: conflict, now: longAfter), "the current version")
        #expect(Self.thirtyDays.keeps(F.bOnB, in: conflict, now: longAfter), "an unresolved conflict")
        #expect(!Self.thirtyDays.keeps(F.v0, in: conflict, now: longAfter))
        #expect(Self.thirtyDays.keeps(F.deletedOnB, in: deleted, now: longAfter))
        #expect(!Self.thirtyDays.keeps(F.v0, in: deleted, now: longAfter), "a deleted file's last content expires like any other")
        #expect(Self.thirtyDays.keeps(F.v0, in: deleted, now: 2_000 + Self.day), "and is restorable until then")
    }

    /// A log line's time is its writer's word: replaced at the ends of Int64, a version's
    /// age must not overflow (a trap took ubqd down in `ubq versions` and the collector).
    @Test func replacementTimesAtTheEndsOfInt64Compare() {
        #expect(!Self.thirtyDays.keeps(replacedAt: .min, now: 1_000))
        #expect(Self.thirtyDays.keeps(replacedAt: .max, now: -1_000))
        #expect(!Self.thirtyDays.keeps(replacedAt: .min, now: .max))
    }

    @Test func theEarliestReplacementCounts() {
        let history = F.history(F.v0, F.bOnB, F.cOnC)  // v0 replaced twice, first at 2 s
        #expect(history.replacementTime(of: F.v0.id) == 2_000)
        #expect(history.replacementTimes()[F.v0.id] == 2_000)
        #expect(history.replacementTime(of: F.cOnC.id) == nil)
    }

    /// Counted parents first, without recursion: a file edited 100,000 times is a chain
    /// that deep. The last edit, dated 1970, counts from the newest time on the chain.
    @Test func countedTimesWalkALongChainAndCutACycle() {
        var chain = PathHistory(path: F.path)
        var parent: VersionID?
        for sequence in 1...100_000 {
            let id = F.id("A", UInt64(sequence))
            chain.add(F.record(id, F.a, parents: parent.map { [$0] } ?? [], time: sequence == 100_000 ? 0 : Int64(sequence)))
            parent = id
        }
        let counted = chain.countedTimes(floor: { _ in nil }, ceiling: .max)
        #expect(counted.count == 100_000 && counted[F.id("A", 100_000)] == 99_999)

        // Only a log written by hand has a cycle: it is cut where met, never looped on.
        let a = F.record(F.id("A", 1), F.a, parents: [F.id("B", 1)], time: 5)
        let b = F.record(F.id("B", 1), F.b, parents: [F.id("A", 1)], time: 7)
        let cycle = F.history(a, b).countedTimes(floor: { _ in nil }, ceiling: .max)
        #expect(cycle.count == 2 && cycle[F.id("A", 1)]! >= 5 && cycle[F.id("B", 1)]! >= 7)
    }

    @Test func neededContentHoldsWhatKeptVersionsNameAcrossPaths() {
        let notes = F.history(F.v0, F.bOnB)  // a (expired), b (current)
        let copy = F.record(F.id("B", 2), F.a, time: 5_000, path: "Documents/copy.txt")  // a again, current elsewhere
        let other = F.history(copy)
        let longAfter = 1_000 * Self.day
        #expect(Self.thirtyDays.neededContent([notes], now: longAfter) == ["bb"])
        #expect(Self.thirtyDays.neededContent([notes, other], now: longAfter) == ["aa", "bb"], "content shared with a kept version stays")
        #expect(Self.thirtyDays.neededContent([notes], now: 3_000) == ["aa", "bb"])
        #expect(HistoryRetention.forever.neededContent([notes], now: longAfter) == ["aa", "bb"])
    }
}
