import Foundation
import Testing
@testable import Coordination

/// The lock directory removed under a long-lived coordinator (`rm -rf $UBQ_RUNTIME_DIR`, a
/// cleaner of `/run/user`): other processes make it again and lock there. The old
/// coordinator must go on excluding them, not read unlocked nor fail every write.
@Suite("A lock directory removed while in use")
struct RemovedLockDirectoryTests {
    @Test func readsStillWaitForWritesHeldInTheNewDirectory() throws {
        let sandbox = try Sandbox()
        let daemon = try FileCoordinator(lockDirectory: sandbox.locks)
        try daemon.coordinate(readingItemAt: sandbox.url("a/y"), timeout: .zero) { _ in }
        try FileManager.default.removeItem(at: sandbox.locks)

        let app = try FileCoordinator(lockDirectory: sandbox.locks)  // a process started afterwards
        try app.coordinate(writingItemAt: sandbox.url("a/y")) { _ in
            let error = try #require(throws: CoordinationError.self) {
                try daemon.coordinate(readingItemAt: sandbox.url("a/y"), options: .withoutCreatingLockFiles, timeout: .zero) { _ in }
            }
            #expect(error.code == .timedOut)
        }
    }

    @Test func writesWorkAgainAndExcludeTheOthers() throws {
        let sandbox = try Sandbox()
        let daemon = try FileCoordinator(lockDirectory: sandbox.locks)
        try FileManager.default.removeItem(at: sandbox.locks)
        let app = try FileCoordinator(lockDirectory: sandbox.locks)
        try daemon.coordinate(writingItemAt: sandbox.url("a/y"), timeout: .zero) { _ in
            let error = try #require(throws: CoordinationError.self) {
                try app.coordinate(readingItemAt: sandbox.url("a/y"), timeout: .zero) { _ in }
            }
            #expect(error.code == .timedOut)
        }
    }
}
