/// What one tree (local, mirror or base) holds at one path: a file with its content, a
/// folder, or a symbolic link. A deletion is the absence of a state (`nil`).
///
/// Two states are equal when syncing one over the other would change nothing: same kind,
/// same content (SHA-256), same link target, same permission bits. Times are not part of
/// it (`modified` is carried, not compared): a file touched without a change is not a change.
public struct EntryState: Hashable, Sendable {
    public enum Kind: String, Sendable, Codable {
        case file, folder, symlink
    }

    public var kind: Kind
    /// SHA-256 of the content, lower-case hex; files only.
    public var sha256: String?
    /// Content size in bytes; 0 for folders and links.
    public var size: Int64
    /// Permission bits (`0o7777` part of `st_mode`); links have none worth keeping.
    public var mode: UInt32
    /// The link's target, exactly as `readlink` gives it; symlinks only. Never followed.
    public var linkTarget: String?
    /// A file's modification time, in nanoseconds since 1970 (UTC), as the disk it was
    /// read from had it; files only. It travels with the content, so that a synced file
    /// keeps its date on every device, as `rsync -a` and iCloud Drive keep it. Nil where
    /// it is not known (a writer that leaves it out, the base, a merge made here).
    public var modified: Int64?

    public init(
        kind: Kind, sha256: String? = nil, size: Int64 = 0, mode: UInt32 = 0, linkTarget: String? = nil, modified: Int64? = nil
    ) {
        self.kind = kind
        self.sha256 = sha256
        self.size = size
        self.mode = mode
        self.linkTarget = linkTarget
        self.modified = modified
    }

    public static func file(sha256: String, size: Int64, mode: UInt32 = 0o644, modified: Int64? = nil) -> EntryState {
        EntryState(kind: .file, sha256: sha256, size: size, mode: mode, modified: modified)
    }

    public static func folder(mode: UInt32 = 0o755) -> EntryState {
        EntryState(kind: .folder, mode: mode)
    }

    public static func symlink(to target: String) -> EntryState {
        EntryState(kind: .symlink, linkTarget: target)
    }
}

// Written out to leave `modified` out: two states that differ only in it are the same
// state, as a file touched is the file it was.
extension EntryState {
    public static func == (a: EntryState, b: EntryState) -> Bool {
        a.kind == b.kind && a.sha256 == b.sha256 && a.size == b.size && a.mode == b.mode && a.linkTarget == b.linkTarget
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(sha256)
        hasher.combine(size)
        hasher.combine(mode)
        hasher.combine(linkTarget)
    }
}
