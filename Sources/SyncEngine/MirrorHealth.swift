import Foundation
import Glibc

/// Whether the mirror can be used right now. A mirror that vanished or suddenly looks
/// empty (an unmounted disk shows its empty mount point) pauses sync: acting on it would
/// look like every file was deleted elsewhere.
enum MirrorHealth {
    /// Checks the mirror, and sets it up when this device never synced and finds the
    /// folder missing or empty (a new mirror).
    static func check(_ layout: MirrorLayout, hasSyncedBefore: Bool) throws(SyncError) {
        if Sys.lstat(layout.marker) != nil { return }
        var info = stat()
        if stat(layout.root, &info) == 0, info.st_mode & S_IFMT != S_IFDIR {  // followed: a link to the folder is fine
            throw SyncError(
                .mirrorUnavailable,
                "the mirror \(layout.root) is not a folder; set `mirror` (UBQ_MIRROR, --mirror or config.toml) to a folder: an empty one, or an existing mirror")
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: layout.root)) ?? nil
        if hasSyncedBefore {
            let what = entries == nil ? "is not there" : "has no \(MirrorLayout.markerFileName) (is it mounted?)"
            throw SyncError(.mirrorUnavailable, "the mirror \(layout.root) \(what); sync is paused, nothing is deleted")
        }
        guard entries?.isEmpty ?? true else {
            throw SyncError(
                .mirrorUnavailable,
                "\(layout.root) is not empty and is not a mirror (no \(MirrorLayout.markerFileName)); choose an empty folder or an existing mirror")
        }
        try Sys.makeFolders(layout.root)
        try DurableFile.replace(layout.marker, with: Array(MirrorLayout.markerContent.utf8))
    }
}
