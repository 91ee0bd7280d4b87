import Foundation

/// What `ubq status` shows of one container's sync.
public struct ContainerSyncStatus: Sendable, Codable, Equatable {
    public enum Phase: String, Sendable, Codable {
        case idle, syncing, paused, failed
    }

    public var container: String
    public var phase: Phase = .idle
    /// Why the container is paused or failed, or what is waiting.
    public var message: String?
    public var conflicts = 0
    public var heldDeletions = 0
    public var lastPass: Date?
    public var problems: [String] = []

    public init(container: String) {
        self.container = container
    }

    mutating func pause(_ reason: String) {
        phase = .paused
        message = reason
    }

    mutating func fail(_ reason: String) {
        phase = .failed
        message = reason
    }

    mutating func finish(_ report: PassReport, conflicts: Int) {
        self.conflicts = conflicts
        heldDeletions = report.heldDeletions
        problems = Array(report.problems.prefix(20))
        lastPass = Date()
        if report.heldDeletions > 0 {
            phase = .paused
            message = "\(report.heldDeletions) deletions wait for `ubq sync --confirm-deletes`"
        } else {
            phase = .idle
            message = conflicts > 0 ? "\(conflicts) in conflict" : nil
        }
    }
}
