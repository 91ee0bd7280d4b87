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

    /// 48 files to a claim: the claim lists the lock directory instead of opening each lock
    /// file (`LockListing`), and must find the same ones. (So many that a new directory's
    /// 4 KiB on ext4 is listed too; `Sandbox` makes it in the temporary folder.)
    static let group = (0..<48).map { "a/b/f\($0)" }

    @Test("a read of many paths nobody coordinated creates no lock file")
    func noFileForManyUncoordinatedPaths() throws {
        let sandbox = try Sandbox()
        let reader = try FileCoordinator(lockDirectory: sandbox.locks)
        var ran = false
        try reader.coordinate(readingItemsAt: Self.group.map { sandbox.url($0) }, options: .withoutCreatingLockFiles, timeout: .zero) { _ in
            ran = true
        }
        #expect(ran)
        #expect(try sandbox.lockFiles().isEmpty)
    }

    @Test("a read of many files waits for a write held on one of them or on a folder above", arguments: ["a/b/f7", "a/b/f0", "a/b/f47", "a"])
    func manyFilesRespectHeldWrites(_ held: String) throws {
        let sandbox = try Sandbox()
        let writer = try FileCoordinator(lockDirectory: sandbox.locks)
        let reader = try FileCoordinator(lockDirectory: sandbox.locks)
        // Lock files of other paths too, which the listing goes over.
        try writer.coordinate(writingItemAt: sandbox.url("c/elsewhere")) { _ in }
        try writer.coordinate(writingItemAt: sandbox.url(held)) { _ in
            let error = try #require(throws: CoordinationError.self) {
                try reader.coordinate(readingItemsAt: Self.group.map { sandbox.url($0) }, options: .withoutCreatingLockFiles, timeout: .zero) { _ in }
            }
            #expect(error.code == .timedOut)
        }
        let afterWrite = try sandbox.lockFiles()
        try reader.coordinate(readingItemsAt: Self.group.map { sandbox.url($0) }, options: .withoutCreatingLockFiles, timeout: .zero) { _ in }
        #expect(try sandbox.lockFiles() == afterWrite)
    }

    @Test("a lock file's name reads back as its lock name; other names do not")
    func lockNamesParse() {
        let name = LockName(path: ItemPath(canonicalBytes: Array("/a/b/f7".utf8)))
        #expect(Self.parse(name.fileName) == name)
        for other in ["x.lock", String(repeating: "g", count: 32) + ".lock", String(repeating: "A", count: 32) + ".lock",
                      String(repeating: "a", count: 32) + ".locks", String(repeating: "a", count: 33) + ".lock"] {
            let parsed = Self.parse(Array(other.utf8) + [0])
            #expect(parsed == nil, "\(other)")
        }
    }

    private static func parse(_ bytes: [UInt8]) -> LockName? {
        bytes.withUnsafeBytes { LockName(fileName: $0) }
    }
}
