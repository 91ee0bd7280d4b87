import Foundation
import Testing

@testable import Ubiquity

/// `UbiquitousKeyValueStore` over its file, without ubqd: two stores on one file stand for
/// two processes (or, once ubqd has merged the file, two devices).
@Suite(.timeLimit(.minutes(1))) struct KeyValueStoreFileTests {
    private func store(_ sandbox: borrowing DocumentSandbox, writer: String) -> UbiquitousKeyValueStore {
        UbiquitousKeyValueStore(fileURL: sandbox.root.appendingPathComponent("KeyValueStore.plist"), coordinator: sandbox.coordinator, writer: writer)
    }

    @Test func valuesSetInOneStoreReachTheOtherThroughTheFile() async throws {
        let sandbox = try DocumentSandbox()
        let (one, two) = (store(sandbox, writer: "one"), store(sandbox, writer: "two"))
        try one.set("blue", forKey: "color")
        try one.set(Int64(7), forKey: "level")
        try two.set(true, forKey: "sound")
        try await one.synchronize()
        try await two.synchronize()
        try await one.synchronize()

        for store in [one, two] {
            #expect(store.string(forKey: "color") == "blue")
            #expect(store.longLong(forKey: "level") == 7)
            #expect(store.bool(forKey: "sound"))
        }
        one.removeObject(forKey: "color")
        try await one.synchronize()
        try await two.synchronize()
        #expect(two.string(forKey: "color") == nil)
        #expect(two.dictionaryRepresentation.keys.sorted() == ["level", "sound"])
    }

    @Test func listenersHearWhatChangedElsewhereAndWhy() async throws {
        let sandbox = try DocumentSandbox()
        let (one, two) = (store(sandbox, writer: "one"), store(sandbox, writer: "two"))
        let heard = await two.changes()
        var changes = heard.makeAsyncIterator()

        try one.set("first", forKey: "a")
        try await one.synchronize()
        try await two.synchronize()
        #expect(await changes.next() == .init(reason: .initialSyncChange, keys: ["a"]))

        try one.set("second", forKey: "a")
        try one.set("new", forKey: "b")
        try await one.synchronize()
        try await two.synchronize()
        #expect(await changes.next() == .init(reason: .serverChange, keys: ["a", "b"]))

        try two.set("mine", forKey: "c")
        try await two.synchronize()  // its own change is nothing to hear of
        try one.set("third", forKey: "a")
        try await one.synchronize()
        try await two.synchronize()
        #expect(await changes.next() == .init(reason: .serverChange, keys: ["a"]))
    }

    @Test func aMergePastTheLimitsIsHeardAsAQuotaViolationAndKeepsEverything() async throws {
        let sandbox = try DocumentSandbox()
        let (one, two) = (store(sandbox, writer: "one"), store(sandbox, writer: "two"))
        for n in 0..<600 { try one.set(Int64(n), forKey: "one\(n)") }
        try await one.synchronize()
        for n in 0..<600 { try two.set(Int64(n), forKey: "two\(n)") }
        let heard = await two.changes()
        var changes = heard.makeAsyncIterator()
        try await two.synchronize()

        #expect(await changes.next()?.reason == .serverChange)
        #expect(await changes.next() == .init(reason: .quotaViolationChange, keys: []))
        #expect(two.dictionaryRepresentation.count == 1200)
        #expect(throws: KeyValueStoreError.self) { try two.set("x", forKey: "more") }
    }

    /// A file that is no store is reported by path and left as it is.
    @Test func aDamagedFileIsReportedAndLeftAlone() async throws {
        let sandbox = try DocumentSandbox()
        let one = store(sandbox, writer: "one")
        let damaged = Data("half a plist".utf8)
        try damaged.write(to: one.fileURL)
        try one.set("x", forKey: "k")

        let error = await #expect(throws: KeyValueStoreError.self) { try await one.synchronize() }
        #expect(error?.code == .unreadableFile)
        #expect(error?.message.contains(one.fileURL.path) == true, "\(String(describing: error))")
        #expect(try Data(contentsOf: one.fileURL) == damaged)
        #expect(one.string(forKey: "k") == "x", "the value set stays, for a later synchronize")
    }

    /// NaN is a property-list real, unequal to itself: compared so, it would be heard as
    /// changed, and written again, at every synchronize.
    @Test func aNaNValueIsNoChangeAtEachSynchronize() async throws {
        let sandbox = try DocumentSandbox()
        let one = store(sandbox, writer: "one")
        try one.set(Double.nan, forKey: "ratio")
        try await one.synchronize()
        let written = try #require(try FileManager.default.attributesOfItem(atPath: one.fileURL.path)[.systemFileNumber] as? UInt64)
        let heard = await one.changes()
        try await one.synchronize()
        try await one.synchronize()
        await one.stopListening()
        var changes: [UbiquitousKeyValueStore.Change] = []
        for await change in heard { changes.append(change) }

        #expect(changes.isEmpty, "\(changes)")
        #expect(try FileManager.default.attributesOfItem(atPath: one.fileURL.path)[.systemFileNumber] as? UInt64 == written, "not written again")
        #expect(one.double(forKey: "ratio").isNaN)
    }

    @Test func anEmptyStoreWritesNoFile() async throws {
        let sandbox = try DocumentSandbox()
        let one = store(sandbox, writer: "one")
        try await one.synchronize()
        #expect(!FileManager.default.fileExists(atPath: one.fileURL.path))
    }
}
