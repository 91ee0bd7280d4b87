import CStatx
import Glibc

/// How view files share storage with the store's objects: a reflink where the filesystem
/// can (copy-on-write: a person who edits a view file never touches the object), else a
/// hard link. Never a copy, which would double the mirror's size (issue 7), except for an
/// object that has as many links as the filesystem allows (see `place`). Where the
/// mirror's filesystem has neither (FAT, most SMB shares), views are off; that is said
/// once, when it is found out.
///
/// The choice is made once per engine, by a probe on a file of this device's own (another
/// device's object may refuse a hard link for a reason of its own: `protected_hardlinks`
/// and a different owner), and kept: the mirror's filesystem does not change under a
/// running daemon. The choice is made on the sync thread only; linking (`place`), which
/// reads nothing it changes, also on the `ViewWriter`'s.
final class ViewLinker: @unchecked Sendable {
    enum Method: Equatable {
        case reflink, hardLink
    }

    private enum State {
        case unknown
        case chosen(Method)
        case off
    }

    let layout: MirrorLayout
    let device: String
    let faults: FaultInjection?
    private var state = State.unknown

    init(layout: MirrorLayout, device: String, faults: FaultInjection?) {
        self.layout = layout
        self.device = device
        self.faults = faults
    }

    /// The errnos by which link(2) and FICLONE say "not on this filesystem".
    static let unsupported: Set<Int32> = [EPERM, EOPNOTSUPP, ENOTSUP, EXDEV, EINVAL, ENOTTY, ENOSYS]

    /// The method to use, probing in `folder` (a view folder) the first time. Nil when views
    /// are off; `problems` gets the reason the one time it is found. Throws when the probe
    /// failed for a reason that may pass (a full disk): the next pass probes again.
    func method(probingIn folder: String, problems: inout [String]) throws(SyncError) -> Method? {
        switch state {
        case .chosen(let method): return method
        case .off: return nil
        case .unknown: break
        }
        if let method = try probe(in: folder) {
            state = .chosen(method)
            return method
        }
        state = .off
        problems.append(offReason!)
        return nil
    }

    /// Why views are off, while they are. A pass reports it once, when it is found out (so
    /// the log says it once); `ubq status` shows it as long as it holds.
    var offReason: String? {
        guard case .off = state else { return nil }
        return "mirror views need hard links or reflinks; \(filesystemName) has neither: views are off"
    }

    /// Tries a reflink, then a hard link, from a new file in this device's own upload area
    /// (the store's filesystem) to a temporary name in `folder`.
    private func probe(in folder: String) throws(SyncError) -> Method? {
        try Sys.makeFolders(layout.incoming)
        try Sys.makeFolders(folder)
        let source = "\(layout.incoming)/\(device).\(UniqueToken.next()).part"
        let target = Self.temporaryName(in: folder)
        defer {
            unlink(target)
            unlink(source)
        }
        try DurableFile.write(source, mode: 0o444, sync: false) { fd throws(SyncError) in try Sys.writeAll(fd, [1], path: source) }
        do throws(SyncError) {
            try place(source, at: target, method: .reflink)
            return .reflink
        } catch where error.isUnsupportedLink {}
        unlink(target)
        do throws(SyncError) {
            try hardLink(source, at: target)
            return .hardLink
        } catch where error.code == .system(EMLINK) {
            return .hardLink  // the filesystem links; this inode has as many links as it allows
        } catch where error.isUnsupportedLink {
            return nil
        }
    }

    /// Makes `target` (a new, temporary name) share `object`'s storage. Where the object
    /// has as many hard links as the filesystem allows (ext4: 65,000; as many identical
    /// files, empty ones most of all), `target` gets a copy of its own instead: the view
    /// stays whole, and only such content is stored twice (nothing, for an empty file).
    func place(_ object: String, at target: String, method: Method) throws(SyncError) {
        switch method {
        case .hardLink:
            do throws(SyncError) {
                try hardLink(object, at: target)
            } catch where error.code == .system(EMLINK) {
                try copy(object, to: target)
            }
        case .reflink:
            try clone(object, to: target)
        }
    }

    /// A hard link to `object` at `target` (a new name); nothing else. Each path is
    /// relative to its folder's descriptor (`LinkFolders`), or as it is without one.
    func hardLink(_ object: String, in objectFolder: Int32 = AT_FDCWD, at target: String, in targetFolder: Int32 = AT_FDCWD) throws(SyncError) {
        if let injected = faults?.failure(of: "link") { throw .system("link", "\(object) → \(target)", errno: injected) }
        guard linkat(objectFolder, object, targetFolder, target, 0) == 0 else { throw .system("link", "\(object) → \(target)") }
    }

    /// A copy of `object` at `target`, checked against the object's name on the way (a
    /// damaged object is not shown, and is set aside), read-only and with the object's
    /// modification time, by which `MirrorView` knows it for a copy of the object as it
    /// knows a reflink.
    private func copy(_ object: String, to target: String) throws(SyncError) {
        let source = try Sys.open(object, O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
        defer { close(source) }
        let destination = try Sys.open(target, O_WRONLY | O_CREAT | O_EXCL, 0o444)
        defer { close(destination) }
        do throws(SyncError) {
            let copied = try ContentHashing.stream(from: source, path: object, to: destination, destinationPath: target)
            guard object.hasSuffix("/" + copied.sha256) else {
                throw DamagedObjects.error(object, got: copied.sha256, setAsideAt: DamagedObjects.setAside(object, read: source))
            }
            try Self.copyTimes(from: source, object, to: destination, target)
        } catch {
            unlink(target)
            throw error
        }
    }

    /// A reflink of `object` at `target`, read-only like the object, with its modification
    /// time: a later pass tells an up-to-date reflink by size and time (its inode is its own).
    private func clone(_ object: String, to target: String) throws(SyncError) {
        let source = try Sys.open(object, O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
        defer { close(source) }
        let destination = try Sys.open(target, O_WRONLY | O_CREAT | O_EXCL, 0o444)
        defer { close(destination) }
        let injected = faults?.failure(of: "FICLONE")
        if injected != nil || ubq_clone_file(destination, source) != 0 {
            let error = SyncError.system("FICLONE", "\(object) → \(target)", errno: injected ?? errno)
            unlink(target)
            throw error
        }
        try Self.copyTimes(from: source, object, to: destination, target)
    }

    private static func copyTimes(from source: Int32, _ sourcePath: String, to destination: Int32, _ destinationPath: String) throws(SyncError) {
        var info = stat()
        guard fstat(source, &info) == 0 else { throw .system("fstat", sourcePath) }
        var times = [info.st_atim, info.st_mtim]
        guard futimens(destination, &times) == 0 else { throw .system("futimens", destinationPath) }
    }

    /// A fresh name beside the view's entries; the `.ubq-` prefix keeps it out of every
    /// index, and a full pass removes one a crash left.
    static func temporaryName(in folder: String) -> String {
        "\(folder)/.ubq-view-\(UniqueToken.next())"
    }

    /// "the mirror's filesystem (vfat)": what the user needs to know to see why.
    private var filesystemName: String {
        let known: [Int: String] = [
            0x4d44: "vfat", 0x2011_BAB0: "exfat", 0x5346_544E: "ntfs", 0x517B: "smbfs", 0xFF53_4D42: "cifs", 0xFE53_4D42: "smb2",
            0x6573_5546: "fuse", 0x6969: "nfs",
        ]
        let type = ubq_filesystem_type(layout.root)
        return "the filesystem of \(layout.root)" + (known[type].map { " (\($0))" } ?? "")
    }
}

extension SyncError {
    /// A link or reflink refused because the filesystem cannot make one.
    var isUnsupportedLink: Bool {
        guard case .system(let errno) = code else { return false }
        return ViewLinker.unsupported.contains(errno)
    }
}
