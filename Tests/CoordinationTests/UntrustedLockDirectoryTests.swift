import Foundation
import Glibc
import Testing
@testable import Coordination

/// A lock directory, or the folder holding it, that another user owns or everybody may
/// write to (prepared in `/tmp`, say) is refused: its locks would be theirs to hold or break.
@Suite("Lock directories of others")
struct UntrustedLockDirectoryTests {
    @Test(arguments: ["locks", "parent"])
    func aFolderAnotherUserOwnsIsRefused(_ which: String) throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(at: sandbox.locks, withIntermediateDirectories: true)
        let folder = which == "locks" ? sandbox.locks.path : sandbox.locks.deletingLastPathComponent().path
        #expect(chown(folder, 4242, 4242) == 0, "tests run as root here")
        let error = try #require(throws: CoordinationError.self) { try FileCoordinator(lockDirectory: sandbox.locks) }
        #expect(error.code == .untrustedLockDirectory)
        #expect(error.message.contains(folder) && error.message.contains("UBQ_RUNTIME_DIR"))
    }

    @Test func aWorldWritableFolderIsRefused() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(at: sandbox.locks, withIntermediateDirectories: true)
        #expect(chmod(sandbox.locks.deletingLastPathComponent().path, 0o777) == 0)
        let error = try #require(throws: CoordinationError.self) { try FileCoordinator(lockDirectory: sandbox.locks) }
        #expect(error.code == .untrustedLockDirectory)
    }

    @Test func aPrivateFolderIsUsed() throws {
        let sandbox = try Sandbox()
        #expect(throws: Never.self) { try FileCoordinator(lockDirectory: sandbox.locks) }
    }
}
