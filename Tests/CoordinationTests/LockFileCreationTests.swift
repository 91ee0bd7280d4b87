import Foundation
import Testing
@testable import Coordination

/// `.withoutCreatingLockFiles` reads (ubqd's indexer) leave no lock file behind, yet still
/// respect the claims that others hold.
@Suite("Reads that create no lock files")
struct LockFileCreationTests {
    @Test("a read of a path nobody coordinated creates no lock file")
    func noFileForAnUncoordinatedPath() throws {
        let sandbox = try Sandbox()
        let reader = try FileCoordinator(lockDirectory: sandbox.locks)
        var ran = false
        try reader.coordinate(readingItemAt: sandbox.url("a/b/y"), options: .withoutCreatingLockFiles, timeout: .zero) { _ in ran = true }
        #expect(ran)
        #expect(try sandbox.lockFiles().isEmpty)
    }

    @Test("it still waits for a write held on the item or on a folder above it", arguments: ["a/b/y", "a"])
    func respectsHeldWrites(_ held: String) throws {
        let sandbox = try Sandbox()
        let writer = try FileCoordinator(lockDirectory: sandbox.locks)
        let reader = try FileCoordinator(lockDirectory: sandbox.locks)
        let before = try sandbox.lockFiles()
        try writer.coordinate(writingItemAt: sandbox.url(held)) { _ in
            let error = try #require(throws: CoordinationError.self) {
                try reader.coordinate(readingItemAt: sandbox.url("a/b/y"), options: .withoutCreatingLockFiles, timeout: .zero) { _ in }
            }
            #expect(error.code == .timedOut)
        }
        let afterWrite = try sandbox.lockFiles()
        try reader.coordinate(readingItemAt: sandbox.url("a/b/y"), options: .withoutCreatingLockFiles, timeout: .zero) { _ in }
        #expect(try sandbox.lockFiles() == afterWrite)  // the reader added none of its own
        #expect(before.isEmpty)
    }
}
