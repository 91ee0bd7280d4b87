import Foundation
import Glibc
@testable import SyncEngine
import Testing

/// A container's `Documents` replaced on one device by a link (moved to another disk, to
/// make room) or by a file: that device's sync waits, saying why, and no other device loses
/// its files or its folder.
@Suite struct DocumentsFolderTests {
    @Test func documentsMovedElsewhereAndLinkedWaitsAndLosesNothing() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        for n in 0..<3 { try a.write("doc\(n).txt", "doc \(n)") }
        a.sync()
        b.sync()
        let moved = scratch.path + "/bigdisk/Documents"
        try FileManager.default.createDirectory(atPath: scratch.path + "/bigdisk", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: b.documents, toPath: moved)
        try FileManager.default.createSymbolicLink(atPath: b.documents, withDestinationPath: moved)
        let waiting = b.sync()
        a.sync()

        #expect(waiting.published == 0 && waiting.problems.contains { $0.contains("is a symbolic link") }, "\(waiting)")
        let status = try #require(b.engine.status().first)
        #expect(status.phase == .paused && status.message?.contains("is a symbolic link") == true, "paused, as the README says, not idle: \(status)")
        #expect(!status.problems.contains { $0.contains("is a symbolic link") }, "said once, in the message")
        #expect(a.tree() == ["doc0.txt": "doc 0", "doc1.txt": "doc 1", "doc2.txt": "doc 2"])
        #expect(TestDevice.tree(at: moved).count == 3)
        // Another device's change read while it waits (`ubq versions`) is no reason for
        // ubqd to pass again at every poll: the waiting pass takes it, and the first pass
        // after the wait looks at everything.
        try a.write("meanwhile.txt", "meanwhile")
        a.sync()
        _ = try b.versions("meanwhile.txt")
        #expect(b.engine.hasPathsToLookAt())
        b.sync()
        #expect(!b.engine.hasPathsToLookAt())

        try FileManager.default.removeItem(atPath: b.documents)  // moved back: sync goes on
        try FileManager.default.moveItem(atPath: moved, toPath: b.documents)
        try a.write("later.txt", "later")
        a.sync()
        #expect(b.sync().problems.isEmpty)
        #expect(b.read("later.txt") == "later" && b.read("meanwhile.txt") == "meanwhile")
        #expect(b.engine.status().first?.phase == .idle)
    }

    @Test func documentsReplacedByAFileWaitsAndLosesNothing() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        for n in 0..<3 { try a.write("doc\(n).txt", "doc \(n)") }
        a.sync()
        b.sync()
        try FileManager.default.removeItem(atPath: b.documents)
        try Data("oops".utf8).write(to: URL(fileURLWithPath: b.documents))
        let waiting = b.sync()
        a.sync()

        #expect(waiting.problems.contains { $0.contains("is not a folder") }, "\(waiting.problems)")
        #expect(a.tree().count == 3)
    }
}
