import Foundation
@testable import SyncEngine
import Testing

/// Two devices that make the same change at once, neither seeing the other's first, leave
/// two heads with one state: no conflict. The next change on either replaces both.
@Suite("The same change made twice at once")
struct TwinVersionTests {
    @Test(arguments: [true, false])
    func theNextChangeReplacesBothTwins(deleting: Bool) throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("same.txt", "same")
        try b.write("same.txt", "same")
        a.sync()
        try Self.unseen(a, by: b)
        a.sync()
        b.sync()
        let twins = try a.engine.versions(container: TestDevice.containerID, path: "Documents/same.txt")
        #expect(twins.count == 2 && twins.allSatisfy { !$0.conflict }, "two versions, no conflict: \(twins)")

        if deleting {
            try FileManager.default.removeItem(atPath: a.documents + "/same.txt")
        } else {
            try a.write("same.txt", "edited on a")
        }
        a.sync(confirmDeletes: true)
        b.sync()
        a.sync()

        let expected = deleting ? [:] : ["same.txt": "edited on a"]
        #expect(a.tree() == expected, "a: \(a.tree())")
        #expect(b.tree() == expected, "b: \(b.tree())")
        #expect(try a.engine.conflicts().isEmpty)
    }

    /// Runs a pass of `device` that does not see `other`'s log: as if both passes ran at
    /// once, `device`'s a moment before `other`'s log line reached the mirror.
    static func unseen(_ other: TestDevice, by device: TestDevice, sync: (TestDevice) -> Void = { $0.sync() }) throws {
        let logs = other.mirror + "/containers/" + TestDevice.containerID.identifier + "/log"
        let hidden = other.mirror + "/hidden-logs"
        try FileManager.default.moveItem(atPath: logs, toPath: hidden)
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: false)
        sync(device)
        for name in try FileManager.default.contentsOfDirectory(atPath: hidden) {
            try FileManager.default.moveItem(atPath: hidden + "/" + name, toPath: logs + "/" + name)
        }
    }
}
