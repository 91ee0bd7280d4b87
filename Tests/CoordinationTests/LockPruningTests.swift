import Foundation
import Testing
@testable import Coordination

/// Deleting idle lock files must never let two incompatible claims in at once, even for a
/// coordinator that still has descriptors of the deleted files in its pool.
@Suite("Pruning lock files")
struct LockPruningTests {
    @Test("idle lock files are deleted, held ones are kept")
    func prunesIdleOnly() throws {
        let sandbox = try Sandbox()
        let coordinator = try FileCoordinator(lockDirectory: sandbox.locks)
        try coordinator.coordinate(writingItemAt: sandbox.url("c/w")) { _ in }
        let idle = try sandbox.lockFiles()
        #expect(!idle.isEmpty)
        try coordinator.coordinate(readingItemAt: sandbox.url("a/x")) { _ in
            let held = try sandbox.lockFiles().subtracting(idle)
            #expect(try coordinator.pruneLockFiles(unusedFor: .zero) > 0)
            let left = try sandbox.lockFiles()
            #expect(held.isSubset(of: left))
            #expect(!left.contains(LockName(path: try ItemPath(url: sandbox.url("c/w"), resolvingFinalLink: false)).description))
        }
        #expect(try coordinator.pruneLockFiles(unusedFor: .seconds(3600)) == 0)
    }

    @Test("a pooled descriptor of a deleted lock file still excludes")
    func pooledDescriptorsAfterPruning() throws {
        let sandbox = try Sandbox()
        let pooled = try FileCoordinator(lockDirectory: sandbox.locks)
        let other = try FileCoordinator(lockDirectory: sandbox.locks)
        let url = sandbox.url("a/b/y")
        try pooled.coordinate(readingItemAt: url) { _ in }  // leaves its descriptors in the pool
        #expect(try other.pruneLockFiles(unusedFor: .zero) > 0)
        try other.coordinate(writingItemAt: url) { _ in
            #expect(throws: CoordinationError.self) {
                try pooled.coordinate(readingItemAt: url, timeout: .zero) { _ in }
            }
        }
        try pooled.coordinate(readingItemAt: url, timeout: .zero) { _ in }
    }

    /// Two pruners open the same idle file; the first deletes it and a claim makes a new one
    /// under the name. The second must not delete that one: a later claim would make a
    /// third file and get in beside the holder of the second.
    @Test("a pruner that opened a file another pruner deleted leaves the new file alone")
    func secondPrunerLeavesTheNewFile() throws {
        let sandbox = try Sandbox()
        let holder = try FileCoordinator(lockDirectory: sandbox.locks)
        let other = try FileCoordinator(lockDirectory: sandbox.locks)
        let url = sandbox.url("a/y")
        try holder.coordinate(writingItemAt: url) { _ in }
        let name = LockName(path: try ItemPath(url: url, resolvingFinalLink: false)).description
        let directory = try holder.lockDirectoryDescriptor
        let late = try Sys.openat(directory, name, O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0)  // the second pruner's open
        defer { Sys.close(late) }
        let now = Int64.max
        #expect(try LockFile.deleteIfIdle(directory: directory, name: name, writtenBefore: now))  // the first pruner
        try holder.coordinate(writingItemAt: url) { _ in
            #expect((try? LockFile.deleteIfIdle(opened: late, directory: directory, name: name, writtenBefore: now)) == false)
            #expect((try? sandbox.lockFiles())?.contains(name) == true)
            #expect(throws: CoordinationError.self) {
                try other.coordinate(readingItemAt: url, timeout: .zero) { _ in }
            }
        }
    }
}
