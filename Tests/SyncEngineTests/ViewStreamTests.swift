import Foundation
import Synchronization
import Testing

@testable import SyncEngine

/// A first sync writes its view as its batches become durable (`ViewStream`), not all at
/// the end; a view that holds something already is checked whole as before.
@Suite struct ViewStreamTests {
    @Test func aFirstSyncWritesItsViewBatchByBatch() throws {
        let scratch = Scratch()
        let a = try scratch.devices("a")[0]
        a.batchCapacity = 100
        let count = a.batchCapacity + 1  // two batches
        for n in 0..<count { try a.write(String(format: "folder/f%04d.txt", n), "file \(n)\n") }
        let updates = Mutex(0)
        a.engine.viewWriter = ViewWriter(beforeEach: { updates.withLock { $0 += 1 } }, report: { _, _ in })

        let report = a.sync(settled: true)

        #expect(report.published > count && report.problems.isEmpty, "\(report.published): \(report.problems)")
        #expect(updates.withLock { $0 } == 2, "one update per batch, and no whole one at the end")
        #expect(a.viewTree() == a.tree())
    }

    @Test func aFirstSyncChecksAViewThatHoldsSomethingWhole() throws {
        let scratch = Scratch()
        let a = try scratch.devices("a")[0]
        // A mirror made, and a view that holds something while the base is still empty: what
        // a person put there, or what a crash left of the first sync's try of a link.
        let layout = a.engine.layout
        try FileManager.default.createDirectory(atPath: layout.root, withIntermediateDirectories: true)
        try Data(MirrorLayout.markerContent(id: MirrorIdentity.newID()).utf8).write(to: URL(fileURLWithPath: layout.marker))
        try a.write("kept.txt", "kept")
        try FileManager.default.createDirectory(atPath: a.view + "/Documents/stray-folder", withIntermediateDirectories: true)
        try Data("stray".utf8).write(to: URL(fileURLWithPath: a.view + "/Documents/stray-folder/stray.txt"))

        #expect(a.sync().problems.isEmpty)

        #expect(a.viewTree() == ["kept.txt": "kept"], "what a crash or a person left is gone")
    }

    @Test func aLaterPassWritesItsViewAtItsEndAsBefore() throws {
        let scratch = Scratch()
        let a = try scratch.devices("a")[0]
        try a.write("one.txt", "1")
        a.sync()
        let updates = Mutex(0)
        a.engine.viewWriter = ViewWriter(beforeEach: { updates.withLock { $0 += 1 } }, report: { _, _ in })
        try a.write("one.txt", "1, edited")
        try a.write("two.txt", "2")

        #expect(a.sync(settled: true).problems.isEmpty)

        #expect(updates.withLock { $0 } == 1)
        #expect(a.viewTree() == ["one.txt": "1, edited", "two.txt": "2"])
    }
}
