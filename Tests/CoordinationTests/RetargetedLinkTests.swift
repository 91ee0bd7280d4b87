import Foundation
import Testing
@testable import Coordination

/// A claim names its items by resolved path. If a symlinked folder on an item's way is
/// pointed elsewhere while the claim waits, the locks of the old target would guard
/// nothing the accessor touches: the claim must take the new target's instead.
@Suite("Links retargeted during a wait")
struct RetargetedLinkTests {
    /// Whether, inside an accessor, another coordinator could write `url` at once.
    private final class Finding: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Bool?
        var otherCouldWrite: Bool? {
            get { lock.withLock { value } }
            set { lock.withLock { value = newValue } }
        }
    }

    @Test("a write that waited claims where the linked folder points when it gets its turn")
    func writeFollowsRetargetedFolderLink() throws {
        let sandbox = try Sandbox()
        for folder in ["e", "g"] {
            try FileManager.default.createDirectory(at: sandbox.url(folder), withIntermediateDirectories: true)
        }
        try FileManager.default.createSymbolicLink(at: sandbox.url("l"), withDestinationURL: sandbox.url("e"))
        let holder = try FileCoordinator(lockDirectory: sandbox.locks)
        let waiter = try FileCoordinator(lockDirectory: sandbox.locks)
        let probe = try FileCoordinator(lockDirectory: sandbox.locks)
        let finding = Finding()
        let linked = sandbox.url("l/x"), newTarget = sandbox.url("g/x")
        let outcome = try holder.coordinate(writingItemAt: sandbox.url("e/x")) { _ in
            let outcome = Outcome.onThread {
                try waiter.coordinate(writingItemAt: linked, timeout: .seconds(60)) { _ in
                    finding.otherCouldWrite = (try? probe.coordinate(writingItemAt: newTarget, timeout: .zero) { _ in }) != nil
                }
            }
            while waiter.blockedCallCount == 0 { usleep(200) }  // it resolved l/x to e/x and waits
            try FileManager.default.removeItem(at: sandbox.url("l"))
            try FileManager.default.createSymbolicLink(at: sandbox.url("l"), withDestinationURL: sandbox.url("g"))
            return outcome
        }
        #expect(outcome.wait() == nil)
        #expect(finding.otherCouldWrite == false, "the waiter's accessor writes g/x: it must hold g/x's lock")
    }
}
