import Glibc
import RawPaths

/// Where an item the mirror names by its path in NFC is, or would go, on this device's
/// disk: under the names its folders have here, which may be another form of the same
/// text (NFD, as a Mac writes names). A file another device adds to `café/` must go into
/// the `cafe\u{301}/` this device holds, not into a new `café/` twin beside it: the two
/// would be reported as the same name and neither synced again.
enum LocalNames {
    /// The container-relative raw path of the item at sync path `path`: its own raw name if
    /// the scan met it (`local`); else the raw names of its folders as the scan met them,
    /// or, above what the scan met (a scoped pass looks at part of the tree), as the disk
    /// has them; and the rest of `path` as it is, for what does not exist yet.
    ///
    /// A name made of ASCII is looked for as it is: it is its own NFC and NFD. (A name that
    /// is not ASCII but whose NFC is, such as U+212A KELVIN SIGN, is not looked for.) So a
    /// new download whose folders have ASCII names costs no system call here.
    static func relative(of path: String, local: LocalTree?, in containerFolder: RawPath) -> RawPath {
        if let entry = local?.entries[path] { return entry.rawPath }
        var known = RawPath()
        var rest = Substring(path)
        var end = path.endIndex
        while let local, let slash = path[..<end].lastSlash {
            if let folder = local.entries[String(path[..<slash])] {
                known = folder.rawPath
                rest = path[path.utf8.index(after: slash)...]
                break
            }
            end = slash
        }
        return onDisk(rest, below: known, in: containerFolder)
    }

    /// `known` (a raw path below `containerFolder` that exists) followed by the names of
    /// `rest` as the disk has them, down to the first one it has in no form.
    private static func onDisk(_ rest: Substring, below known: RawPath, in containerFolder: RawPath) -> RawPath {
        var found = known
        var exists = true
        for name in rest.pathNames {
            guard exists, !name.utf8.allSatisfy({ $0 < 0x80 }) else {
                found = found.appending(Array(name.utf8))
                continue
            }
            let folder = containerFolder.appending(found)
            if let here = sameName(String(name), in: folder) {
                found = found.appending(here)
            } else {
                found = found.appending(Array(name.utf8))
                exists = false
            }
        }
        return found
    }

    /// The raw name in `folder` whose NFC is `name` (itself, if it is there); nil if none.
    private static func sameName(_ name: String, in folder: RawPath) -> [UInt8]? {
        let bytes = Array(name.utf8)
        var info = stat()
        if folder.appending(bytes).withCString({ lstat($0, &info) }) == 0 { return bytes }
        guard let handle = folder.withCString({ opendir($0) }) else { return nil }
        defer { closedir(handle) }
        return DirectoryEntry.names(handle).first { SyncPath.key(RawPath(bytes: $0)) == name }
    }
}
