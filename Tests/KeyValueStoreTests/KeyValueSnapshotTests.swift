import KeyedArchive
import KeyValueStore
import TestSupport
import Testing

/// Key-by-key last-writer-wins: the merge every device and process computes alike.
@Suite struct KeyValueSnapshotTests {
    @Test func theLaterChangeOfAKeyWinsEitherWay() throws {
        var a = KeyValueSnapshot()
        var b = KeyValueSnapshot()
        try a.set(.string("blue"), forKey: "color", writer: "a", now: 1_000)
        try b.set(.string("red"), forKey: "color", writer: "b", now: 2_000)
        try a.set(.integer(3), forKey: "size", writer: "a", now: 1_500)

        let merged = a.merging(b)
        #expect(merged == b.merging(a))
        #expect(merged.values == ["color": .string("red"), "size": .integer(3)])
    }

    @Test func aRemovalWinsOverAnEarlierSetAndLosesToALaterOne() throws {
        var a = KeyValueSnapshot()
        try a.set(.bool(true), forKey: "flag", writer: "a", now: 1_000)
        var b = a
        try b.set(nil, forKey: "flag", writer: "b", now: 2_000)
        #expect(a.merging(b).value(forKey: "flag") == nil)
        #expect(b.merging(a).value(forKey: "flag") == nil)

        try a.set(.bool(false), forKey: "flag", writer: "a", now: 3_000)
        #expect(a.merging(b).value(forKey: "flag") == .bool(false))
    }

    /// Another device's clock ran ahead: a change made here still replaces its value.
    @Test func aChangeMadeHereReplacesOneDatedAhead() throws {
        var theirs = KeyValueSnapshot()
        try theirs.set(.string("future"), forKey: "k", writer: "ahead", now: 9_000_000)
        var mine = KeyValueSnapshot().merging(theirs)
        try mine.set(.string("now"), forKey: "k", writer: "here", now: 1_000)
        #expect(mine.merging(theirs).value(forKey: "k") == .string("now"))
        #expect(theirs.merging(mine).value(forKey: "k") == .string("now"))
    }

    /// A file dated at the end of time (hand-made, or damaged) must neither crash a set of
    /// that key (`time + 1`) nor beat it.
    @Test func aFileDatedAtTheEndOfTimeStillLosesToAChangeMadeHere() throws {
        var theirs = KeyValueSnapshot()
        try theirs.set(.string("x"), forKey: "k", writer: "zzz", now: .max)
        let file = try KeyValueSnapshot.decode(theirs.encoded(), file: "KeyValueStore.plist")
        var mine = KeyValueSnapshot().merging(file)
        try mine.set(.string("y"), forKey: "k", writer: "here", now: 1_000)
        #expect(mine.merging(file).value(forKey: "k") == .string("y"))
        #expect(file.merging(mine).value(forKey: "k") == .string("y"))
        var again = mine
        try again.set(.string("z"), forKey: "k", writer: "here", now: .max)  // saturates, no trap
        #expect(again.value(forKey: "k") == .string("z"))
    }

    @Test func changesMadeInTheSameMillisecondMergeAlikeEverywhere() throws {
        var a = KeyValueSnapshot()
        var b = KeyValueSnapshot()
        var c = KeyValueSnapshot()
        try a.set(.string("x"), forKey: "k", writer: "same", now: 5)
        try b.set(.string("y"), forKey: "k", writer: "same", now: 5)
        try c.set(nil, forKey: "k", writer: "same", now: 5)
        let orders = [a.merging(b).merging(c), c.merging(b).merging(a), b.merging(c).merging(a), a.merging(c).merging(b)]
        #expect(Set(orders.map { $0.encoded() }).count == 1)
        #expect(orders[0].value(forKey: "k") != nil, "a set beats a removal of the same time and writer")
    }

    /// Random changes on three stores, merged in random orders and groupings, any number
    /// of times: always the same store (commutative, associative, idempotent).
    @Test(arguments: 1...20 as ClosedRange<UInt64>)
    func anyOrderOfMergesGivesOneStore(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var stores = [KeyValueSnapshot(), KeyValueSnapshot(), KeyValueSnapshot()]
        for _ in 0..<60 {
            let store = Int(random.next() % 3)
            let key = "k\(random.next() % 8)"
            let value: PlistValue? = random.next() % 4 == 0 ? nil : .integer(Int64(random.next() % 5))
            try stores[store].set(value, forKey: key, writer: "w\(store)", now: Int64(random.next() % 50))
            if random.next() % 5 == 0 {
                let other = Int(random.next() % 3)
                stores[store] = stores[store].merging(stores[other])
            }
        }
        let reference = stores[0].merging(stores[1]).merging(stores[2])
        for _ in 0..<10 {
            var order = stores.shuffled(using: &random)
            if random.next() % 2 == 0 { order.append(order[0]) }
            let merged = order.dropFirst().reduce(order[0]) { random.next() % 2 == 0 ? $0.merging($1) : $1.merging($0) }
            #expect(merged == reference)
            #expect(merged.encoded() == reference.encoded())
        }
    }

    @Test func theFileReadsBackAsWritten() throws {
        var store = KeyValueSnapshot()
        try store.set(.string("é"), forKey: "text", writer: "a", now: 1)
        try store.set(.dictionary([PlistEntry("n", .real(1.5)), PlistEntry("d", .date(700_000_000))]), forKey: "nested", writer: "a", now: 2)
        try store.set(.data([0, 255]), forKey: "bytes", writer: "b", now: 3)
        try store.set(nil, forKey: "gone", writer: "b", now: 4)
        let bytes = store.encoded()
        #expect(bytes.starts(with: Array("bplist00".utf8)))
        #expect(try KeyValueSnapshot.decode(bytes, file: "f") == store)
    }
}
