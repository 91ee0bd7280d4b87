import APIModel
import Foundation
import SyncPlanning

extension VersionInfo {
    init(_ record: VersionRecord, deviceName: String, current: Bool, conflict: Bool, layout: MirrorLayout) {
        let isFile = record.state?.kind == .file
        self.init(
            id: record.id.description, device: record.id.device, deviceName: deviceName,
            date: ISO8601.format(referenceSeconds: Double(record.time) / 1000 - ISO8601.referenceDateOffset),
            kind: record.state?.kind.rawValue ?? "deleted", sha256: record.state?.sha256,
            size: isFile ? record.state?.size : nil, current: current, conflict: conflict,
            contentPath: isFile ? record.state?.sha256.map(layout.object) : nil,
            modified: isFile ? record.state?.modified.map { ISO8601.format(unixNanoseconds: $0) } : nil,
            mode: record.state.flatMap { $0.kind == .symlink ? nil : String($0.mode & 0o7777, radix: 8) })
    }
}

extension ContainerSyncStatus {
    mutating func pause(_ reason: String) {
        phase = .paused
        message = reason
    }

    mutating func fail(_ reason: String) {
        phase = .failed
        message = reason
    }

    /// What the user is told of deletions the mass-deletion guard holds: both ways out.
    static func heldDeletionsNote(_ count: Int) -> String {
        "\(count) deletions wait: `ubq sync --confirm-deletes` publishes them, `ubq sync --restore-deletes` brings the files back"
    }

    /// The most problems a status lists.
    static let problemLimit = 20

    /// Lists the first of `all` (`problemLimit`), and counts the rest in `problemsOmitted`
    /// with `omitted` more that were left out before.
    mutating func list(_ all: [String], omitted: Int = 0) {
        problems = Array(all.prefix(Self.problemLimit))
        let rest = omitted + max(all.count - Self.problemLimit, 0)
        problemsOmitted = rest > 0 ? rest : nil
    }

    /// The pass ended. `standing`: problems that hold beyond one pass (views off, items left
    /// out, actions that failed), shown first and once, whether or not this pass found
    /// them; `leftOut` of them are items not synced.
    mutating func finish(_ report: PassReport, conflicts: Int, standing: [String] = [], leftOut: Int = 0) {
        self.conflicts = conflicts
        heldDeletions = report.heldDeletions
        waiting = report.deferred.isEmpty ? nil : report.deferred.count
        notSynced = leftOut + report.unreadable > 0 ? leftOut + report.unreadable : nil
        var said = Set(standing)
        if let holdup = report.holdup { said.insert(holdup.reason) }  // the message says it
        list(standing + report.problems.filter { said.insert($0).inserted })
        lastPass = ISO8601.format(referenceSeconds: Date().timeIntervalSinceReferenceDate)
        if let holdup = report.holdup {
            if case .stopped = holdup { return fail(holdup.reason) }
            return pause(holdup.reason)
        }
        if report.heldDeletions > 0 {
            phase = .paused
            message = Self.heldDeletionsNote(report.heldDeletions)
        } else if report.pausedForSpace {
            phase = .paused
            message = "paused: a disk is full (the problems say which); sync resumes once there is space"
        } else {
            phase = .idle
            let notes = [
                notSynced.map { "\($0) \($0 == 1 ? "item" : "items") not synced: the problems say why" },
                conflicts > 0 ? "\(conflicts) in conflict: see `ubq conflicts`" : nil,
                waiting.map { "\($0) \($0 == 1 ? "change waits" : "changes wait") to settle (still being written, or part of a burst of deletions)" },
            ].compactMap { $0 }
            message = notes.isEmpty ? nil : notes.joined(separator: "; ")
        }
    }
}

/// What `ubq resolve --keep` keeps.
public enum ResolutionChoice: Sendable, Equatable {
    /// The current version; the others are superseded (they stay in the history).
    case current
    /// One of the versions, which becomes current.
    case version(VersionID)
    /// The current version, with each other one copied beside it as
    /// `name (conflict from DEVICE YYYY-MM-DD).ext`.
    case all
    /// The current version, with only these conflict versions marked resolved
    /// (NSFileVersion's `isResolved`): the item's other conflict versions stay unresolved.
    case resolving([VersionID])

    /// `current`, `all` or a version id (`DEVICE:SEQ`).
    public init?(_ text: String) {
        switch text {
        case "current": self = .current
        case "all": self = .all
        default:
            guard let id = VersionID(text) else { return nil }
            self = .version(id)
        }
    }
}
