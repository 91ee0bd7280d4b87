import ContentTypes
import Coordination
import Foundation
import MetadataIndex
import RawPaths
import TestSupport
import Testing
import UbiquitySettings
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
            inspector.snapshot(container: "c", displayName: "C", folder: RawPath(folder.path), relativePath: RawPath("notes.txt"), status: status)
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

    /// Files read together under one claim (`ItemInspector.snapshotsInGroups`): while
    /// another writer holds one of them, the others are still read, each under its own
    /// claim, and only the held one is left for later (nil in its place).
    @Test func aGroupWithOneFileUnderAnotherWritersClaimReadsTheOthers() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-coord-group-\(UUID().uuidString.prefix(8))")
        let container = ContainerNames(try ContainerID("iCloud.org.example.Group"), layout: ContainerLayout(root: RawPath(folder.path)))
        let documents = URL(fileURLWithPath: container.folder.readable + "/Documents")
        try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let names = ["a.txt", "b.txt", "c.txt"]
        for name in names { try Data("text of \(name)".utf8).write(to: documents.appendingPathComponent(name)) }
        let locks = folder.appendingPathComponent("locks")
        let (logger, _) = RecordingLogHandler.logger()
        let inspector = ItemInspector(detector: try ContentTypeDetector(), coordinator: try FileCoordinator(lockDirectory: locks), logger: logger)
        let files = try names.map { name in
            let relative = RawPath("Documents/" + name)
            return (relativePath: relative, names: container, status: try #require(try FileStatus.read(container.folder.appending(relative))))
        }
        func texts() -> [String?] { inspector.snapshotsInGroups(files).map { $0?.textContent } }
        #expect(texts() == names.map { "text of \($0)" })

        let writer = try FileCoordinator(lockDirectory: locks)
        let held = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        Thread {
            try? writer.coordinate(writingItemAt: container.folder.appending(RawPath("Documents/b.txt")).fileURL) { _ in
                held.signal()
                release.wait()
            }
            done.signal()
        }.start()
        held.wait()
        #expect(texts() == ["text of a.txt", nil, "text of c.txt"])
        release.signal()
        done.wait()
        #expect(texts() == names.map { "text of \($0)" })
    }
}
