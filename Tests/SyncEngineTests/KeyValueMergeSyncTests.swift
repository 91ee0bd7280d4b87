import Foundation
import KeyValueStore
import KeyedArchive
import Testing

@testable import SyncEngine

/// A container's key-value store changed on two devices at once merges key by key, the
/// later change of each key winning: no conflict version (NSUbiquitousKeyValueStore).
@Suite("Key-value store conflicts are merged, not forked")
struct KeyValueMergeSyncTests {
    private func file(_ device: TestDevice) -> String {
        device.root + "/" + TestDevice.containerID.folderName + "/" + KeyValueSnapshot.fileName
    }

    private func write(_ device: TestDevice, _ store: KeyValueSnapshot) throws {
        try Data(store.encoded()).write(to: URL(fileURLWithPath: file(device)))
    }

    private func read(_ device: TestDevice) throws -> KeyValueSnapshot {
        try KeyValueSnapshot.decode(Array(Data(contentsOf: URL(fileURLWithPath: file(device)))), file: file(device))
    }

    @Test func changesOfTwoDevicesMergeKeyByKey() throws {
        let scratch = Scratch()
        let devices = try scratch.devices("a", "b")
        let (a, b) = (devices[0], devices[1])
        var shared = KeyValueSnapshot()
        try shared.set(.string("blue"), forKey: "color", writer: "a", now: 1_000)
        try shared.set(.integer(1), forKey: "level", writer: "a", now: 1_000)
        try write(a, shared)
        a.sync()
        b.sync()

        var onA = try read(a)
        try onA.set(.string("green"), forKey: "color", writer: "a", now: 3_000)
        try onA.set(nil, forKey: "level", writer: "a", now: 2_000)
        var onB = try read(b)
        try onB.set(.string("red"), forKey: "color", writer: "b", now: 2_000)  // earlier than a's: a's wins
        try onB.set(.bool(true), forKey: "sound", writer: "b", now: 2_000)
        try write(a, onA)
        try write(b, onB)
        for device in [a, b, a, b] { device.sync() }

        let merged = try read(a)
        #expect(try read(b) == merged)
        #expect(merged.values == ["color": .string("green"), "sound": .bool(true)])
        #expect(a.engine.conflicts().isEmpty, "a merge leaves no conflict version")
        #expect(b.engine.conflicts().isEmpty)
    }

    /// The same bytes anywhere else in the container are an ordinary file: a conflict.
    @Test func aStoreFileElsewhereIsNotMerged() throws {
        let scratch = Scratch()
        let devices = try scratch.devices("a", "b")
        let (a, b) = (devices[0], devices[1])
        let path = a.documents + "/" + KeyValueSnapshot.fileName
        var store = KeyValueSnapshot()
        try store.set(.integer(1), forKey: "k", writer: "a", now: 1)
        try Data(store.encoded()).write(to: URL(fileURLWithPath: path))
        a.sync()
        b.sync()
        var onA = store
        try onA.set(.integer(2), forKey: "x", writer: "a", now: 2)
        var onB = store
        try onB.set(.integer(3), forKey: "y", writer: "b", now: 2)
        try Data(onA.encoded()).write(to: URL(fileURLWithPath: path))
        try Data(onB.encoded()).write(to: URL(fileURLWithPath: b.documents + "/" + KeyValueSnapshot.fileName))
        for device in [a, b, a] { device.sync() }
        #expect(a.engine.conflicts().count == 1)
    }
}
