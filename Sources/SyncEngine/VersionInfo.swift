import Foundation
import SyncPlanning

/// One version of a path as `ubq versions` and `ubq conflicts` show it.
public struct VersionInfo: Sendable, Codable, Equatable {
    public var id: String
    public var device: String
    public var deviceName: String
    /// When the change was made (the writer's clock).
    public var date: Date
    public var kind: String
    public var sha256: String?
    public var size: Int64?
    public var deleted: Bool
    public var current: Bool
    public var conflict: Bool

    init(_ record: VersionRecord, deviceName: String, current: Bool, conflict: Bool) {
        id = record.id.description
        device = record.id.device
        self.deviceName = deviceName
        date = Date(timeIntervalSince1970: Double(record.time) / 1000)
        kind = record.state?.kind.rawValue ?? "deleted"
        sha256 = record.state?.sha256
        size = record.state?.kind == .file ? record.state?.size : nil
        deleted = record.state == nil
        self.current = current
        self.conflict = conflict
    }
}

/// A path with unresolved conflict versions.
public struct ConflictInfo: Sendable, Codable, Equatable {
    public var container: String
    public var path: String
    public var current: VersionInfo
    public var others: [VersionInfo]
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
}
