import Glibc
import RawPaths

/// Store objects that do not hash to their name: changed in place through a view's hard
/// link, cut short by a failed copy of the mirror, or replaced by a special file. A reader
/// that meets one moves it out of `store/sha256/` into `store/damaged/`
/// (docs/MIRROR-FORMAT.md, "Damaged objects"). Left in place it would stay trusted: a
/// device naming the same content again takes an object of the right size as stored
/// (`ContentStore.reuses`), so no device would ever upload the content again. Moved
/// aside, it is kept (it may hold someone's edit), and its name there asks every device
/// that holds the content to store it again (`SyncPass.restoreDamagedObjects`).
enum DamagedObjects {
    /// `store/damaged/` of the store that holds `object` (`store/sha256/<h2>/<hash>`).
    static func folder(holding object: String) -> String {
        Sys.parent(of: Sys.parent(of: Sys.parent(of: object))) + "/damaged"
    }

    /// Moves `object` aside, if it is still the file the reader found wrong (open as
    /// `read`), and not a good copy another device stored meanwhile. Returns where it went,
    /// or nil if it stayed (gone or replaced already, or the move failed: the next reader
    /// tries again).
    static func setAside(_ object: String, read: Int32) -> String? {
        var opened = stat()
        guard fstat(read, &opened) == 0, let now = Sys.lstat(object), now.st_ino == opened.st_ino, now.st_dev == opened.st_dev else {
            return nil
        }
        let folder = folder(holding: object)
        let name = object.lastSlash.map { object[object.utf8.index(after: $0)...] } ?? Substring(object)  // 64 hex digits
        let destination = "\(folder)/\(name).\(UniqueToken.next())"
        guard (try? Sys.makeFolders(folder)) != nil, rename(object, destination) == 0 else { return nil }
        return destination
    }

    /// Asks for `object` (`store/sha256/<h2>/<hash>`), found missing, to be stored again:
    /// an empty entry `store/damaged/<hash>.missing`, the request an object set aside
    /// makes. Every reader that misses the object asks under the same name, so there is
    /// one entry however many ask. Returns whether the request is there.
    @discardableResult
    static func requestAgain(_ object: String) -> Bool {
        let folder = folder(holding: object)
        let name = object.lastSlash.map { object[object.utf8.index(after: $0)...] } ?? Substring(object)
        guard MirrorLayout.isObjectName(String(name)), (try? Sys.makeFolders(folder)) != nil else { return false }
        let fd = Glibc.open("\(folder)/\(name).\(missingSuffix)", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if fd >= 0 { close(fd) }
        return fd >= 0 || errno == EEXIST
    }

    /// The second part of a request's name (`requestAgain`), where an object set aside
    /// has a random one.
    static let missingSuffix = "missing"

    /// The error a reader reports for `object`, found missing from the store.
    static func missingError(_ object: String, what: String) -> SyncError {
        let asked = requestAgain(object) ? "; a device that has the file will store it again" : ""
        // A tool copying the mirror between places (Syncthing, rsync) may bring a log's
        // line before the object it names: the same error, until it comes.
        return SyncError(.corruptMirror, "\(object) is missing from the store (or not copied here yet)\(what)\(asked)")
    }

    /// The hashes of the objects set aside in `layout`'s store that are still missing from
    /// it: the content a device holding it should store again. None when nothing was ever
    /// set aside (one failed `opendir`).
    static func missing(in layout: MirrorLayout) -> Set<String> {
        Set(entries(in: layout).map(\.hash).filter { Sys.lstat(layout.object($0)) == nil })
    }

    /// The entries of `layout`'s `store/damaged/` (`<hash>.<random>`), with the hash each
    /// was stored under; other names there are not ours.
    static func entries(in layout: MirrorLayout) -> [(path: String, hash: String)] {
        MirrorView.names(in: RawPath(layout.damaged)).compactMap { bytes in
            guard let name = String(validating: bytes, as: UTF8.self) else { return nil }
            let hash = String(name.prefix { $0 != "." })
            return MirrorLayout.isObjectName(hash) ? (layout.damaged + "/" + name, hash) : nil
        }
    }

    /// The error a reader reports for `object`, saying where it went if it was set aside.
    static func error(_ object: String, got sha256: String?, setAsideAt destination: String?) -> SyncError {
        let what = destination.map { "; moved to \($0), and a device that has the file will store it again" } ?? ""
        return .damagedObject(object, got: sha256, detail: what)
    }
}
