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

    private var countdown: Int?
    /// What another process does when a pass reaches a checkpoint, by checkpoint name.
    private var interleaved: [String: () -> Void] = [:]
    /// System calls made to fail, by name, with the errno they fail with.
    private var failingCalls: [String: Int32] = [:]

    public init() {}

    /// Crash at the `steps`-th checkpoint from now.
    public func crash(afterCheckpoints steps: Int) {
        countdown = steps
    }

    public func disarm() {
        countdown = nil
    }

    /// Makes every later `call` ("link", "FICLONE") fail with `errno`, as on a filesystem
    /// that lacks the feature (a FAT disk, an SMB share).
    public func fail(_ call: String, with errno: Int32) {
        failingCalls[call] = errno
    }

    /// Makes `call` succeed again.
    public func stopFailing(_ call: String) {
        failingCalls[call] = nil
    }

    /// Runs `action` the next time a pass reaches `checkpoint`, once: what another process
    /// does at that moment (an editor saving while a download is under way, say).
    public func interleave(at checkpoint: String, _ action: @escaping () -> Void) {
        interleaved[checkpoint] = action
    }

    /// The errno `call` must fail with, or nil to make the call.
    func failure(of call: String) -> Int32? {
        failingCalls[call]
    }

    func checkpoint(_ name: String) throws(SimulatedCrash) {
        interleaved.removeValue(forKey: name)?()
        guard let remaining = countdown else { return }
        if remaining <= 0 {
            countdown = nil
            throw SimulatedCrash(checkpoint: name)
        }
        countdown = remaining - 1
    }
}
