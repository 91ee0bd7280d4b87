import APIModel
import Foundation
import SyncPlanning
import Testing

@testable import SyncEngine

/// NSFileVersion's `removeOtherVersionsOfItem`: every version but the current one leaves
/// the history on every device, conflicts included, and its content can be collected at
/// once; a change made meanwhile on another device is not removed.
@Suite("Removing an item's other versions")
struct RemoveOtherVersionsTests {
    static let path = "Documents/doc.txt"
    static let day: Int64 = 86_400_000

    private func versions(_ device: TestDevice) throws -> [VersionInfo] {
        try device.engine.versions(container: TestDevice.containerID, path: Self.path)
    }

    @Test func onlyTheCurrentVersionIsLeftOnEveryDevice() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.conflictedPair()
        let loser = try #require(a.engine.conflicts().first?.others.first)
        let current = try #require(a.read("doc.txt"))
        #expect(try versions(a).count == 3)

        try a.engine.resolve(container: TestDevice.containerID, path: Self.path, keep: .current, removingOtherVersions: true)
        for device in [a, b, a] { device.sync() }

        for device in [a, b] {
            let left = try versions(device)
            #expect(left.count == 1 && left.first?.current == true, "\(device.name): \(left)")
            #expect(device.engine.conflicts().isEmpty)
            #expect(device.read("doc.txt") == current)
        }
        let error = #expect(throws: SyncError.self) {
            try b.engine.restore(container: TestDevice.containerID, path: Self.path, version: try #require(VersionID(loser.id)))
        }
        #expect(error?.message.contains("removed from the history") == true, "\(String(describing: error))")
    }

    /// The removed versions' content goes with the next collection, however long the
    /// retention, forever included; the current content stays.
    @Test(arguments: [HistoryRetention.days(30), .forever])
    func theRemovedContentIsCollected(retention: HistoryRetention) throws {
        let scratch = Scratch()
        let (a, b) = try scratch.conflictedPair(retention: retention)
        try a.engine.resolve(container: TestDevice.containerID, path: Self.path, keep: .current, removingOtherVersions: true)
        a.sync()
        b.sync()
        let afterTheGrace = SyncClock.nowMilliseconds() + 2 * Self.day  // objects are never collected younger than a day

        let collection = a.engine.collectStore(now: afterTheGrace)
        #expect(collection.problems.isEmpty, "\(collection.problems)")
        #expect(collection.deleted == 2, "the base and the conflict version's content")
        let c = try TestDevice("c", in: scratch.path, mirror: scratch.path + "/mirror")
        c.sync()
        #expect(c.read("doc.txt") == a.read("doc.txt"))
    }

    /// A change another device made from a removed version, before it saw the removal, is
    /// no ancestor of it: it stays, as a conflict with the current version.
    @Test func aChangeMadeMeanwhileStays() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("doc.txt", "base")
        a.sync()
        b.sync()
        try b.write("doc.txt", "edited on b")
        try a.engine.resolve(container: TestDevice.containerID, path: Self.path, keep: .current, removingOtherVersions: true)
        a.sync()
        b.sync()
        a.sync()

        let left = try versions(a)
        #expect(left.contains { $0.kind == "file" && $0.size == Int64("edited on b".utf8.count) }, "\(left)")
        #expect(Set([a.read("doc.txt"), b.read("doc.txt")]) == ["edited on b"], "the later edit is current")
    }
}
