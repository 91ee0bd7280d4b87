import CStatx
import Glibc
import RawPaths

/// Opens files below one folder through no symlink (as `ubq_open_beneath` does), keeping
/// the last folder it opened a file in: files taken in path order, as a scan hashes them
/// or a run of uploads stages them, then cost one openat(2) each instead of three opens
/// (the root, the folder beneath it, the file) and their closes.
///
/// A folder kept open is the folder that was at its path when it was opened. If it is
/// renamed meanwhile, a file opened through it is the file that was at the path asked for
/// a moment before, as with any open racing a rename; the watcher reports the rename.
final class FolderCursor {
    let root: RawPath
    /// The root, opened O_PATH; -1 (with `rootError`) if it could not be.
    private let rootDescriptor: Int32
    private let rootError: Int32
    /// The folder (relative to the root) the last file was opened in, and its descriptor.
    private var folder: RawPath?
    private var folderDescriptor: Int32 = -1

    init(root: RawPath) {
        self.root = root
        rootDescriptor = root.withCString { ubq_open_folder($0) }
        rootError = rootDescriptor < 0 ? errno : 0
    }

    deinit {
        if folderDescriptor >= 0 { close(folderDescriptor) }
        if rootDescriptor >= 0 { close(rootDescriptor) }
    }

    /// Opens `relative` (below the root) with `flags`, plus O_NOFOLLOW and O_CLOEXEC.
    /// Throws a `SyncError` naming the whole path, as `Sys.open` does.
    /// With `forReading`, the access time is left as it is where the kernel allows
    /// (`ubq_openat_for_reading`): 100,000 inodes fewer for a first sync's `syncfs` to
    /// write. In Benchmarks/sync/floor (new ext4, two runs each) that `syncfs` took
    /// 0.98-1.01 s with O_NOATIME, 1.10-1.12 s without; in ubqd's first sync the gain is
    /// within the noise.
    func open(_ relative: RawPath, _ flags: Int32, forReading: Bool = false) throws(SyncError) -> Int32 {
        let parent = relative.removingLastComponent()
        guard let leaf = relative.lastComponent, let folderFD = descriptor(of: parent) else {
            throw .system("open", root.appending(relative).readable)
        }
        let open = forReading ? ubq_openat_for_reading : openat
        while true {
            let fd = RawPath(bytes: leaf).withCString { open(folderFD, $0, flags | O_NOFOLLOW | O_CLOEXEC) }
            if fd >= 0 { return fd }
            if errno != EINTR { throw .system("open", root.appending(relative).readable) }
        }
    }

    /// The signature of `relative` (below the root, not followed if a link); nil if it
    /// cannot be read.
    func signature(_ relative: RawPath) -> LocalSignature? {
        guard let leaf = relative.lastComponent, let folderFD = descriptor(of: relative.removingLastComponent()) else { return nil }
        var info = stat()
        let status = RawPath(bytes: leaf).withCString { fstatat(folderFD, $0, &info, AT_SYMLINK_NOFOLLOW) }
        return status == 0 ? LocalSignature(stat: info) : nil
    }

    /// The descriptor of `parent`, opened now unless it is the folder of the last open;
    /// nil with errno set if it cannot be opened beneath the root.
    private func descriptor(of parent: RawPath) -> Int32? {
        if parent == folder, folderDescriptor >= 0 { return folderDescriptor }
        if folderDescriptor >= 0 { close(folderDescriptor) }
        folder = nil
        guard rootDescriptor >= 0 else {
            errno = rootError
            return nil
        }
        folderDescriptor = parent.withCString { ubq_open_folder_beneath(rootDescriptor, $0) }
        guard folderDescriptor >= 0 else { return nil }
        folder = parent
        return folderDescriptor
    }
}
