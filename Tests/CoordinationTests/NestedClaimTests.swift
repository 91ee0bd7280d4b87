import Foundation
import Testing
@testable import Coordination

/// A read nested in a read: the inner claim must not queue behind a writer that waits for
/// the outer one (it would wait for itself), while claims of other threads still do.
@Suite("Nested claims")
struct NestedClaimTests {
    /// Starts a writer of `url` on a thread of its own and returns once it waits.
    private func waitingWriter(_ url: URL, locks: URL) throws -> Outcome {
        let writer = try FileCoordinator(lockDirectory: locks)
        let outcome = Outcome.onThread { try writer.coordinate(writingItemAt: url, timeout: .seconds(60)) { _ in } }
        while writer.blockedCallCount == 0 { usleep(200) }  // it waits, so it holds the turnstile
        return outcome
    }

    /// What a read of `url` from another thread, outside any accessor, comes to.
    private func readFromAnotherThread(_ url: URL, locks: URL, timeout: Duration) throws -> CoordinationError.Code? {
        let other = try FileCoordinator(lockDirectory: locks)
        let outcome = Outcome.onThread { try other.coordinate(readingItemAt: url, timeout: timeout) { _ in } }
        return outcome.wait()
    }

    @Test("a read nested in a read of the same item goes past a waiting writer; other threads queue")
    func nestedReadOfSameItem() throws {
        let sandbox = try Sandbox()
        let url = sandbox.url("a/x")
        let reader = try FileCoordinator(lockDirectory: sandbox.locks)
        let writer = try reader.coordinate(readingItemAt: url) { _ in
            let writer = try waitingWriter(url, locks: sandbox.locks)
            #expect(try readFromAnotherThread(url, locks: sandbox.locks, timeout: .milliseconds(200)) == .timedOut)
            // Another coordinator object of the same code path counts too (apps often make
            // one per call, as with NSFileCoordinator).
            let inner = try FileCoordinator(lockDirectory: sandbox.locks)
            try inner.coordinate(readingItemAt: url, timeout: .seconds(5)) { _ in
                try reader.coordinate(readingItemAt: url, timeout: .seconds(5)) { _ in }
            }
            return writer
        }
        #expect(writer.wait() == nil)
    }

    @Test("a read of a folder nested in a read below it goes past a writer of the folder")
    func nestedReadOfAncestor() throws {
        let sandbox = try Sandbox()
        let reader = try FileCoordinator(lockDirectory: sandbox.locks)
        let writer = try reader.coordinate(readingItemAt: sandbox.url("a/b/x")) { _ in
            let writer = try waitingWriter(sandbox.url("a"), locks: sandbox.locks)
            try reader.coordinate(readingItemAt: sandbox.url("a"), timeout: .seconds(5)) { _ in }
            try reader.coordinate(readingItemAt: sandbox.url("a/b"), timeout: .seconds(5)) { _ in }
            return writer
        }
        #expect(writer.wait() == nil)
    }

    @Test("an async read nested in an async read goes past a waiting writer")
    func nestedAsyncRead() async throws {
        let sandbox = try Sandbox()
        let url = sandbox.url("c/y")
        let reader = try FileCoordinator(lockDirectory: sandbox.locks)
        let writer = try FileCoordinator(lockDirectory: sandbox.locks)
        let write = try await reader.coordinate(readingItemAt: url, byAsyncAccessor: { _ -> Task<Bool, any Error> in
            let write = Task { try await writer.coordinate(writingItemAt: url, byAsyncAccessor: { _ in true }) }
            while writer.blockedCallCount == 0 { await Task.yield() }
            // A child task inherits the enclosing claims: it runs inside the accessor.
            async let child: Void = reader.coordinate(readingItemAt: url, timeout: .seconds(5), byAsyncAccessor: { _ in })
            try await reader.coordinate(readingItemAt: url, timeout: .seconds(5), byAsyncAccessor: { _ in })
            try await child
            return write
        })
        #expect(try await write.value)
    }
}
