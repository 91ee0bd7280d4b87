import KeyedArchive
import KeyValueStore
import Testing

/// NSUbiquitousKeyValueStore's limits, each refused with a message that says which.
@Suite struct KeyValueLimitsTests {
    @Test func aKeyOfMoreThan64BytesIsRefused() throws {
        var store = KeyValueSnapshot()
        try store.set(.bool(true), forKey: String(repeating: "é", count: 32), writer: "w", now: 1)  // 64 bytes
        let error = #expect(throws: KeyValueStoreError.self) {
            try store.set(.bool(true), forKey: String(repeating: "é", count: 33), writer: "w", now: 1)
        }
        #expect(error?.code == .invalidKey && error?.message.contains("is 66 bytes long; keys hold at most 64 bytes") == true)
    }

    @Test func theKeyAfterThe1024thIsRefusedAndARemovalMakesRoom() throws {
        var store = KeyValueSnapshot()
        for n in 0..<1024 { try store.set(.integer(Int64(n)), forKey: "k\(n)", writer: "w", now: 1) }
        let error = #expect(throws: KeyValueStoreError.self) { try store.set(.integer(0), forKey: "one more", writer: "w", now: 2) }
        #expect(error?.code == .quotaExceeded && error?.message.contains("1025 keys") == true, "\(String(describing: error))")
        #expect(store.values.count == 1024, "nothing changed")
        try store.set(nil, forKey: "k0", writer: "w", now: 3)
        try store.set(.integer(0), forKey: "one more", writer: "w", now: 4)
    }

    @Test func moreThanAMebibyteIsRefused() throws {
        var store = KeyValueSnapshot()
        try store.set(.data(Array(repeating: 1, count: 600_000)), forKey: "a", writer: "w", now: 1)
        let error = #expect(throws: KeyValueStoreError.self) {
            try store.set(.data(Array(repeating: 2, count: 600_000)), forKey: "b", writer: "w", now: 1)
        }
        #expect(error?.code == .quotaExceeded)
        #expect(store.value(forKey: "b") == nil)
    }

    @Test(arguments: [PlistValue.uid(1), .set([.integer(1)]), .dictionary([PlistEntry(key: .integer(1), value: .bool(true))]),
                      .array([.uid(2)])])
    func aValueNoStoreHoldsIsRefused(value: PlistValue) {
        var store = KeyValueSnapshot()
        let error = #expect(throws: KeyValueStoreError.self) { try store.set(value, forKey: "k", writer: "w", now: 1) }
        #expect(error?.code == .invalidValue && error?.message.contains("\"k\"") == true)
    }

    /// Past the limits after a merge, a change that does not grow the store is taken: a new
    /// key is refused (as documented), an existing key changed or made smaller is not.
    @Test func pastTheLimitsAfterAMergeExistingKeysCanStillChange() throws {
        var one = KeyValueSnapshot()
        var two = KeyValueSnapshot()
        for n in 0..<600 { try one.set(.integer(Int64(n)), forKey: "one\(n)", writer: "one", now: 1_000) }
        for n in 0..<600 { try two.set(.integer(Int64(n)), forKey: "two\(n)", writer: "two", now: 1_000) }
        var merged = one.merging(two)
        #expect(merged.excess(of: .standard) != nil)

        #expect(throws: KeyValueStoreError.self) { try merged.set(.integer(1), forKey: "new", writer: "one", now: 2_000) }
        try merged.set(.integer(1), forKey: "one0", writer: "one", now: 2_000)
        try merged.set(.string(String(repeating: "a", count: 100)), forKey: "one2", writer: "one", now: 2_000)  // more bytes, no key
        try merged.set(nil, forKey: "one1", writer: "one", now: 2_000)
        #expect(merged.value(forKey: "one0") == .integer(1))
    }

    @Test func aMergeBeyondTheLimitsIsReportedNotDropped() throws {
        var a = KeyValueSnapshot()
        var b = KeyValueSnapshot()
        for n in 0..<600 {
            try a.set(.integer(1), forKey: "a\(n)", writer: "a", now: 1)
            try b.set(.integer(1), forKey: "b\(n)", writer: "b", now: 1)
        }
        let merged = a.merging(b)
        #expect(merged.values.count == 1200)
        #expect(merged.excess(of: .standard)?.contains("1200 keys") == true)
    }

    @Test(arguments: [
        ([UInt8]("not a plist".utf8), "is not a key-value store"),
        (try! PropertyList.encode(.dictionary([PlistEntry("format", .string("other"))]), format: .binary), "no \"format\""),
        (try! PropertyList.encode(.dictionary([PlistEntry("format", .string("ubiquity-kvs")), PlistEntry("version", .integer(2))]), format: .binary),
         "version this program does not read"),
        (try! PropertyList.encode(.dictionary([PlistEntry("format", .string("ubiquity-kvs")), PlistEntry("version", .integer(1)),
                                               PlistEntry("entries", .dictionary([PlistEntry("k", .dictionary([]))]))]), format: .binary),
         "the entry \"k\" lacks"),
    ])
    func aFileThatIsNoStoreSaysWhy(bytes: [UInt8], message: String) {
        let error = #expect(throws: KeyValueStoreError.self) { try KeyValueSnapshot.decode(bytes, file: "/c/KeyValueStore.plist") }
        #expect(error?.code == .unreadableFile)
        #expect(error?.message.hasPrefix("/c/KeyValueStore.plist") == true && error?.message.contains(message) == true, "\(String(describing: error))")
    }
}
