import Foundation
import Glibc

/// Whether the mirror can be used right now. A mirror that vanished or suddenly looks
/// empty (an unmounted disk shows its empty mount point) pauses sync: acting on it would
/// look like every file was deleted elsewhere.
enum MirrorHealth {
    /// What `check` found: the mirror's id (nil for a mirror made before mirrors had one),
    /// and whether it is another mirror than the one this device synced with, so that what
    /// this device recorded as synced (its base) says nothing of it.
    struct Found: Equatable {
        var id: String?
        var isAnother: Bool
    }

    /// Checks the mirror, and sets it up when the folder is missing or empty and this
    /// device never synced, or knows a mirror elsewhere only (`known`): the user set
    /// `mirror` to a new folder. An empty folder where the known mirror was is taken for
    /// an unmounted disk.
    static func check(_ layout: MirrorLayout, hasSyncedBefore: Bool, known: MirrorIdentity?) throws(SyncError) -> Found {
        if Sys.lstat(layout.marker) != nil {
            // The kernel may answer `lstat` from its cache after the mount died; an open asks.
            let fd = open(layout.marker, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
            let code = errno
            if fd < 0, unreachable.contains(code) { throw unreachableError(layout.root, code) }
            defer { if fd >= 0 { close(fd) } }
            let id = fd < 0 ? nil : MirrorIdentity.id(inMarker: Sys.readRegularFile(fd, path: layout.marker))
            return Found(id: id, isAnother: hasSyncedBefore && known?.isAnother(id: id) == true)
        }
        let markerError = errno
        if unreachable.contains(markerError) { throw unreachableError(layout.root, markerError) }
        var info = stat()
        let found = stat(layout.root, &info) == 0  // followed: a link to the folder is fine
        let rootError = errno
        if found, info.st_mode & S_IFMT != S_IFDIR {
            throw SyncError(
                .mirrorUnavailable,
                "the mirror \(layout.root) is not a folder; set `mirror` (UBQ_MIRROR, --mirror or config.toml) to a folder: an empty one, or an existing mirror")
        }
        if !found, unreachable.contains(rootError) { throw unreachableError(layout.root, rootError) }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: layout.root)) ?? nil
        // A mirror is expected here if the one the device knows was here (even before its
        // base has a row: a device starting over with it, stopped before its first commit),
        // or if it synced before without recording where (a state from before it did).
        let expected = known.map { !$0.isElsewhere(than: layout.root) } ?? hasSyncedBefore
        if expected {
            let what = entries == nil ? "is not there (is its disk mounted?)" : "has no \(MirrorLayout.markerFileName) (is it mounted?)"
            throw SyncError(
                .mirrorUnavailable,
                "the mirror \(layout.root) \(what); sync is paused, nothing is deleted (to start a new mirror, set `mirror` to an empty folder elsewhere)")
        }
        // A new mirror for a device that knows one elsewhere is made only in a folder the
        // user made: one that is missing may be a disk not mounted yet (made, the mirror
        // would go on the disk below it).
        if known != nil, entries == nil {
            throw SyncError(
                .mirrorUnavailable,
                "the mirror \(layout.root) is not there: mount the disk that holds it, or make the folder (empty, it becomes a new mirror); sync is paused, nothing is deleted")
        }
        guard entries?.isEmpty ?? true else {
            throw SyncError(
                .mirrorUnavailable,
                "\(layout.root) is not empty and is not a mirror (no \(MirrorLayout.markerFileName)); choose an empty folder or an existing mirror")
        }
        try Sys.makeFolders(layout.root)
        let id = MirrorIdentity.newID()
        // Another device setting up the same folder at once may be first: its id is the mirror's.
        let first = try DurableFile.create(layout.marker, with: Array(MirrorLayout.markerContent(id: id).utf8))
        // A device that synced before is here only if it synced elsewhere.
        return Found(id: first ? id : MirrorIdentity.id(inMarker: layout.marker), isAnother: hasSyncedBefore)
    }

    /// How a mount says it cannot be reached: a FUSE mount whose program died (ENOTCONN),
    /// an NFS handle gone stale, a server away, a failing disk (EIO), a medium taken out.
    /// Not "missing": nothing may be made there, and the fix is to mount it again.
    static let unreachable: Set<Int32> = [ENOTCONN, EIO, ESTALE, ETIMEDOUT, EHOSTDOWN, EHOSTUNREACH, ECONNRESET, ECONNABORTED, ENODEV, ENXIO, ENOMEDIUM]

    static func unreachableError(_ root: String, _ code: Int32) -> SyncError {
        SyncError(
            .mirrorUnavailable,
            "the mirror \(root) cannot be reached (\(String(cString: strerror(code))): a share or mount whose connection or program ended, or a failing disk? unmount it (umount, or fusermount -u for a FUSE mount) and mount it again); sync is paused, nothing is deleted")
    }
}

/// Which mirror a device synced with: where it was, and its id (`ubiquity-mirror.json`'s
/// `id`; nil for a mirror made before mirrors had one). What a device recorded as synced
/// (its base) holds for that mirror only.
struct MirrorIdentity: Equatable {
    var path: String
    var id: String?

    /// Whether a mirror with `id` is another than this one. Without both ids it cannot
    /// be told, and is taken for the same.
    func isAnother(id other: String?) -> Bool {
        guard let id, let other else { return false }
        return id != other
    }

    /// Whether this mirror was at another path than `root`: the user set `mirror` to a new
    /// one. Paths are compared resolved (links followed) where they can be.
    func isElsewhere(than root: String) -> Bool {
        Self.resolved(path) != Self.resolved(root)
    }

    private static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return URL(fileURLWithPath: path).standardizedFileURL.path }
        defer { free(real) }
        return String(cString: real)
    }

    /// 32 hex digits, at random.
    static func newID() -> String {
        (0..<2).map { _ in String(format: "%016llx", UInt64.random(in: 0...UInt64.max)) }.joined()
    }

    /// The `id` the marker at `path` holds; nil if none (or it cannot be read).
    static func id(inMarker path: String) -> String? {
        id(inMarker: Sys.readRegularFile(path))
    }

    /// The `id` a marker's `bytes` hold; nil if none (or nothing was read).
    static func id(inMarker bytes: [UInt8]?) -> String? {
        guard let bytes, let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else { return nil }
        return object["id"] as? String
    }
}
