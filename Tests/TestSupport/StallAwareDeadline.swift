import Foundation

/// A deadline for a wait in an async test that does not count the time the process ran
/// none of its tasks.
///
/// Synchronous tests hold their thread of the cooperative pool while they run (`ubq sync`,
/// a shell command): two of them stall every task of the process, the waiting test and the
/// work it waits for alike. With two tests blocked for 5 s, a 20 ms `Task.sleep` took 4.8 s
/// (2 cores). A deadline counting that time could pass, with the work it waits for still
/// queued, before either had a thread again: a presenter's registration was "not within
/// 30 s" once in CI, beside a model check. Stalls count again past `allowance`: a stall
/// of minutes is a hang to report.
public struct StallAwareDeadline: CustomStringConvertible {
    public static let step: Duration = .milliseconds(20)
    public static let allowance: Duration = .seconds(300)
    public let timeout: Duration
    private let start = ContinuousClock.now
    private var end: ContinuousClock.Instant
    private var stalled: Duration = .zero

    public init(_ timeout: Duration) {
        self.timeout = timeout
        end = start + timeout
    }

    public var hasPassed: Bool { ContinuousClock.now >= end }

    /// Sleeps one step; a step that took over a second more stalled, and moves the end.
    public mutating func sleep() async throws {
        let asleep = ContinuousClock.now
        try await Task.sleep(for: Self.step)
        let overslept = ContinuousClock.now - asleep - Self.step
        guard overslept > .seconds(1) else { return }
        stalled += overslept
        end = min(end + overslept, start + timeout + Self.allowance)
    }

    public var description: String {
        stalled == .zero ? "\(timeout)" : "\(timeout) (and \(stalled) the process stalled)"
    }
}
