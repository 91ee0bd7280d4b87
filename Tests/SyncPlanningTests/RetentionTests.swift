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
