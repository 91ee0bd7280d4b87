import ContentTypes
import MetadataIndex
import Coordination
import Foundation
import RawPaths
import Testing
@testable import Indexing

/// ubqd reads document content under a coordinated read that never waits: an item another
/// process is writing is left for later, then read once the writer is done.
@Suite struct CoordinatedInspectionTests {
    @Test func aFileUnderAnotherWritersClaimIsDeferredThenReadOnceReleased() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-coord-inspect-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("notes.txt")
        try Data("meeting notes\n".utf8).write(to: file)
        let locks = folder.appendingPathComponent("locks")
        let (logger, _) = RecordingLogHandler.logger()
        let inspector = ItemInspector(detector: try ContentTypeDetector(), coordinator: try FileCoordinator(lockDirectory: locks), logger: logger)
        let status = try #require(try FileStatus.read(RawPath(file.path)))
        func inspect() -> ItemSnapshot? {
            inspector.snapshot(container: "c", displayName: "C", relativePath: RawPath("Documents/notes.txt"), absolutePath: RawPath(file.path), status: status)
        }

        let writer = try FileCoordinator(lockDirectory: locks)  // its own descriptors: it excludes the inspector like another process
        let held = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        Thread {
            try? writer.coordinate(writingItemAt: file) { _ in
                held.signal()
                release.wait()
            }
            done.signal()
        }.start()
        held.wait()
        #expect(inspect() == nil)
        release.signal()
        done.wait()
        let item = try #require(inspect())
        #expect(item.textContent == "meeting notes\n")
    }
}
