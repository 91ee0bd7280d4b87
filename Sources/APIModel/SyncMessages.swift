/// The sync routes' messages (docs/API.md, "Sync").

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
    /// How many changes the last pass left to settle: files still being written or
    /// changed a moment ago, deletions waiting for the burst they belong to to end. Each
    /// pass looks at them again. Absent when none (and from a daemon older than the field).
    public var waiting: Int?
    /// How many items this device could not sync: left out until the user changes them (a
    /// name sync cannot carry, a path too long) or whose action failed in the last pass
    /// (the next one tries again). `problems` says why. Absent when none (and from a
    /// daemon older than the field).
    public var notSynced: Int?
    /// When the last pass ended (ISO 8601).
    public var lastPass: String?
    public var problems: [String] = []
    /// How many problems the last pass had beyond those `problems` lists (at most 20):
    /// the daemon's log has them all. Absent when none (and from a daemon older than the field).
    public var problemsOmitted: Int?
    /// How long, in whole seconds, a call to the mirror has waited for its answer, once
    /// that is 5 s or more (a network share whose server is away, a disk that hangs):
    /// `phase` is then `paused` and `message` says so. Absent otherwise.
    public var mirrorUnansweredSeconds: Int?
    /// The pass in flight: nil when idle, or while a pass has planned nothing to do.
    public var progress: SyncProgress?
    /// The last pass that had anything to do, as it ended (done == total); nil before one.
    public var lastProgress: SyncProgress?

    public init(container: String) {
        self.container = container
    }
}

/// How far a pass is: actions (uploads, downloads, deletions, renames, base updates) and
/// the bytes of file content uploaded and downloaded. `done` counts actions finished,
/// whether they succeeded, were skipped (the disk changed meanwhile) or failed.
public struct SyncProgress: Sendable, Codable, Equatable {
    public var done: Int
    public var total: Int
    public var bytesDone: Int64
    public var bytesTotal: Int64

    public init(done: Int = 0, total: Int = 0, bytesDone: Int64 = 0, bytesTotal: Int64 = 0) {
        self.done = done
        self.total = total
        self.bytesDone = bytesDone
        self.bytesTotal = bytesTotal
    }

    /// The sum of `parts` (every container's pass, for one progress bar).
    public static func sum(_ parts: some Sequence<SyncProgress>) -> SyncProgress {
        parts.reduce(into: SyncProgress()) { sum, part in
            sum.done += part.done
            sum.total += part.total
            sum.bytesDone += part.bytesDone
            sum.bytesTotal += part.bytesTotal
        }
    }
}

/// `GET /v1/mirror`: this device and the sync state of every container.
public struct MirrorStatus: Sendable, Codable, Equatable {
    /// The mirror folder; nil when none is configured (sync is off).
    public var mirror: String?
    public var device: String?
    public var deviceName: String?
    public var containers: [ContainerSyncStatus]

    public init(mirror: String?, device: String?, deviceName: String?, containers: [ContainerSyncStatus]) {
        self.mirror = mirror
        self.device = device
        self.deviceName = deviceName
        self.containers = containers
    }
}

/// `POST /v1/mirror/sync`: run a pass now.
public struct SyncNowRequest: Sendable, Codable {
    /// Let through the deletions held by the mass-deletion guard.
    public var confirmDeletes: Bool
    /// Undo them instead: the items come back from the mirror (absent: false).
    public var restoreDeletes: Bool?
    /// Look at every item, not only at what changed since the last pass.
    public var full: Bool?

    public init(confirmDeletes: Bool, restoreDeletes: Bool = false, full: Bool = false) {
        self.confirmDeletes = confirmDeletes
        self.restoreDeletes = restoreDeletes
        self.full = full
    }
}

/// An item deleted whose content the history still keeps (`POST /v1/deleted`, which takes
/// a `VersionedItem` naming the folder to look below; "" for the whole container).
public struct DeletedItemInfo: Sendable, Codable, Hashable {
    public var container: String
    public var path: String
    /// The deletion: when, and on which device.
    public var deletion: VersionInfo
    /// The last version with content: `ubq restore PATH --version` brings it back.
    public var lastVersion: VersionInfo
    /// The outermost deleted folder listed too that this item went with: restoring that
    /// folder brings it back (`ubq deleted` shows it inside that folder's row). Absent for
    /// an item deleted on its own, and from a daemon older than the field.
    public var folder: String?

    public init(container: String, path: String, deletion: VersionInfo, lastVersion: VersionInfo, folder: String? = nil) {
        self.container = container
        self.path = path
        self.deletion = deletion
        self.lastVersion = lastVersion
        self.folder = folder
    }
}

/// One version of a path (NSFileVersion's view).
public struct VersionInfo: Sendable, Codable, Hashable {
    /// `DEVICE:SEQ`: what `ubq resolve --keep` and `ubq restore --version` take.
    public var id: String
    public var device: String
    public var deviceName: String
    /// When the change was made, ISO 8601 (UTC), by the writer's clock.
    public var date: String
    /// A file's modification time in that version, ISO 8601 (UTC): the date it had on the
    /// device that made it, which a restore or a download gives it. Absent for other kinds,
    /// from a writer that leaves it out, and from a daemon older than the field.
    public var modified: String?
    /// `file`, `folder`, `symlink`, or `deleted`.
    public var kind: String
    public var sha256: String?
    public var size: Int64?
    public var current: Bool
    public var conflict: Bool
    /// Where the content of a file's version can be read: its object in the mirror's
    /// store (read-only; it may be gone once the version has expired). Absent for other
    /// kinds, and from a daemon older than the field.
    public var contentPath: String?
    /// A file's or a folder's permission bits in that version, in octal (`"644"`): two
    /// versions may differ by them alone (a `chmod +x`). Absent for other kinds, and from a
    /// daemon older than the field.
    public var mode: String?

    public init(
        id: String, device: String, deviceName: String, date: String, kind: String, sha256: String?, size: Int64?, current: Bool,
        conflict: Bool, contentPath: String? = nil, modified: String? = nil, mode: String? = nil
    ) {
        self.modified = modified
        self.mode = mode
        self.id = id
        self.device = device
        self.deviceName = deviceName
        self.date = date
        self.kind = kind
        self.sha256 = sha256
        self.size = size
        self.current = current
        self.conflict = conflict
        self.contentPath = contentPath
    }
}

/// A path with unresolved conflict versions.
public struct ConflictInfo: Sendable, Codable, Equatable {
    public var container: String
    /// Relative to the container folder (`Documents/notes.txt`).
    public var path: String
    public var current: VersionInfo
    public var others: [VersionInfo]

    public init(container: String, path: String, current: VersionInfo, others: [VersionInfo]) {
        self.container = container
        self.path = path
        self.current = current
        self.others = others
    }
}

/// Names one item for the version routes: a container and a path relative to its folder.
public struct VersionedItem: Sendable, Codable, Hashable {
    public var container: String
    public var path: String

    public init(container: String, path: String) {
        self.container = container
        self.path = path
    }
}

/// `POST /v1/resolve`: `keep` is `current`, `all`, or a version id.
public struct ResolveRequest: Sendable, Codable {
    public var item: VersionedItem
    public var keep: String
    /// With `keep` `current`: resolve only these conflict versions (NSFileVersion's
    /// `isResolved`), leaving the item's other conflict versions unresolved. Nil: all.
    public var only: [String]?
    /// The versions the resolution replaces leave the history too, on every device
    /// (NSFileVersion's `removeOtherVersionsOfItem`). Not with `only`.
    public var removeOtherVersions: Bool?

    public init(item: VersionedItem, keep: String, only: [String]? = nil, removeOtherVersions: Bool? = nil) {
        self.item = item
        self.keep = keep
        self.only = only
        self.removeOtherVersions = removeOtherVersions
    }
}

/// What `restore` did (`POST /v1/restore`). A single item's restore answers
/// `{"restored": true}`, as daemons always did; a deleted folder's also lists the items it
/// brought back and those it could not.
public struct RestoreResult: Sendable, Codable, Equatable {
    /// Always true: an answer is given only once the restore was done.
    public var restored: Bool
    /// A folder restore's items brought back (container-relative paths, the folder first);
    /// absent for a single item.
    public var items: [String]?
    /// A folder restore's items left as they are, as `path: reason` (an edit not synced yet
    /// is at the path, say); absent for a single item.
    public var problems: [String]?

    public init(items: [String]? = nil, problems: [String]? = nil) {
        restored = true
        self.items = items
        self.problems = problems
    }
}

/// `POST /v1/restore`.
public struct RestoreRequest: Sendable, Codable {
    public var item: VersionedItem
    public var version: String

    public init(item: VersionedItem, version: String) {
        self.item = item
        self.version = version
    }
}
