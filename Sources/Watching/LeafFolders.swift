import CStatx
import Glibc
import RawPaths

/// Tells folders that hold no subfolder from their link count, so that the watcher need
/// not list them to find subfolders to watch. On filesystems that keep it, a folder's link
/// count is 2 (its name and its own `.`) plus one for each subfolder's `..`: a count of 2
/// means no subfolder. A first walk of 10,000 folders with files alone opened and listed
/// each of them for nothing. (GNU find's "leaf optimization" rests on the same count.)
///
/// Trusted only on the filesystem types below, and only on the root's device: other
/// filesystems report 1 (btrfs; ext4 past 65,000 subfolders), or counts that do not
/// follow this rule (network filesystems), and a mount point inside the tree may be one of
/// them. Wherever it is not trusted, the folder is listed.
struct LeafFolders {
    /// The root's device, when its filesystem keeps the count; nil when it does not.
    private let trustedDevice: UInt64?

    /// ext2/3/4, XFS and tmpfs (linux/magic.h): each counts subfolders in the link count.
    static let countingFilesystems: Set<Int> = [0xEF53, 0x5846_5342, 0x0102_1994]

    init(root: RawPath) {
        let type = root.withCString { ubq_filesystem_type($0) }
        var status = ubq_file_status()
        guard Self.countingFilesystems.contains(type), root.withCString({ ubq_file_status_at(AT_FDCWD, $0, &status) }) == 0 else {
            trustedDevice = nil
            return
        }
        trustedDevice = status.device
    }

    /// Whether the folder at `absolute` holds no subfolder now. Read after the folder is
    /// watched: a subfolder made after the count was read reports itself with an event.
    func holdsNoSubfolder(_ absolute: RawPath) -> Bool {
        guard let trustedDevice else { return false }
        var status = ubq_file_status()
        guard absolute.withCString({ ubq_file_status_at(AT_FDCWD, $0, &status) }) == 0 else { return false }
        return Self.isLeaf(mode: status.mode, device: status.device, linkCount: status.link_count, trustedDevice: trustedDevice)
    }

    /// The rule itself: a folder on the trusted device with exactly two links.
    static func isLeaf(mode: UInt32, device: UInt64, linkCount: UInt32, trustedDevice: UInt64) -> Bool {
        mode & UInt32(S_IFMT) == UInt32(S_IFDIR) && device == trustedDevice && linkCount == 2
    }
}
