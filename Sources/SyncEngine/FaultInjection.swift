import Foundation

/// Stops a pass at a chosen step, as `kill -9` would, for the randomized crash tests: the
/// countdown reaches zero at one of the executor's checkpoints (between storing content,
/// appending to the log and committing the base) and the pass ends there, leaving the
/// disk, the mirror and the database exactly as a crash would. Tests also make system
/// calls fail, and run another process's action at a checkpoint (`interleave`).
public final class FaultInjection: @unchecked Sendable {
    public struct SimulatedCrash: Error, CustomStringConvertible {
        public var checkpoint: String
        public var description: String { "simulated crash at \(checkpoint)" }
    }

    /// Guards the state below: a batch's objects are stored on a thread of their own, which
    /// asks `failure(of:)` while the pass's thread runs an interleaved action that makes
    /// other calls fail (`fail`, `stopFailing`). Unguarded, the two crashed a test run once
    /// (a dictionary read while it was written, in `BatchPipelineTests`).
    private let lock = NSLock()
    private var countdown: Int?
    /// What another process does when a pass reaches a checkpoint, by checkpoint name.
    private var interleaved: [String: () -> Void] = [:]
    /// System calls made to fail, by name, with the errno they fail with.
    private var failingCalls: [String: Int32] = [:]

    public init() {}

    /// Crash at the `steps`-th checkpoint from now.
    public func crash(afterCheckpoints steps: Int) {
        lock.withLock { countdown = steps }
    }

    public func disarm() {
        lock.withLock { countdown = nil }
    }

    /// Makes every later `call` ("link", "FICLONE") fail with `errno`, as on a filesystem
    /// that lacks the feature (a FAT disk, an SMB share).
    public func fail(_ call: String, with errno: Int32) {
        lock.withLock { failingCalls[call] = errno }
    }

    /// Makes `call` succeed again.
    public func stopFailing(_ call: String) {
        lock.withLock { failingCalls[call] = nil }
    }

    /// Runs `action` the next time a pass reaches `checkpoint`, once: what another process
    /// does at that moment (an editor saving while a download is under way, say).
    public func interleave(at checkpoint: String, _ action: @escaping () -> Void) {
        lock.withLock { interleaved[checkpoint] = action }
    }

    /// Runs what `interleave(at:)` set for `name`, if anything, without counting toward a
    /// crash: for steps outside a pass's actions (a call to the mirror between passes).
    func reach(_ name: String) {
        // Run outside the lock: the action may arm other faults.
        lock.withLock { interleaved.removeValue(forKey: name) }?()
    }

    /// The errno `call` must fail with, or nil to make the call.
    func failure(of call: String) -> Int32? {
        lock.withLock { failingCalls[call] }
    }

    func checkpoint(_ name: String) throws(SimulatedCrash) {
        reach(name)
        let crashes = lock.withLock {
            guard let remaining = countdown else { return false }
            countdown = remaining <= 0 ? nil : remaining - 1
            return remaining <= 0
        }
        if crashes { throw SimulatedCrash(checkpoint: name) }
    }
}
