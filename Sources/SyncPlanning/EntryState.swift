/// What one tree (local, mirror or base) holds at one path: a file with its content, a
/// folder, or a symbolic link. A deletion is the absence of a state (`nil`).
///
/// Two states are equal when syncing one over the other would change nothing: same kind,
/// same content (SHA-256), same link target, same permission bits. Times are not part of
/// it: a file touched without a change is not a change.
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

    public init(kind: Kind, sha256: String? = nil, size: Int64 = 0, mode: UInt32 = 0, linkTarget: String? = nil) {
        self.kind = kind
        self.sha256 = sha256
        self.size = size
        self.mode = mode
        self.linkTarget = linkTarget
    }

    public static func file(sha256: String, size: Int64, mode: UInt32 = 0o644) -> EntryState {
        EntryState(kind: .file, sha256: sha256, size: size, mode: mode)
    }

    public static func folder(mode: UInt32 = 0o755) -> EntryState {
        EntryState(kind: .folder, mode: mode)
    }

    public static func symlink(to target: String) -> EntryState {
        EntryState(kind: .symlink, linkTarget: target)
    }
}
