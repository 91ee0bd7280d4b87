import FileEvents
import Glibc
import RawPaths

/// Lists the subfolders of a folder without following symlinks, keeping raw name bytes.
enum DirectoryListing {
    static func subfolders(of folder: RawPath, relative: RawPath) -> [RawPath] {
        guard let handle = folder.withCString({ opendir($0) }) else { return [] }
        defer { closedir(handle) }
        var result: [RawPath] = []
        while let entry = readdir(handle) {
            let type = DirectoryEntry.type(entry)
            guard type == DT_DIR || type == DT_UNKNOWN else { continue }
            let name = DirectoryEntry.name(entry)
            if DirectoryEntry.isDotOrDotDot(name) { continue }
            let child = relative.appending(name)
            if type == DT_UNKNOWN && !isFolder(folder.appending(name)) { continue }
            result.append(child)
        }
        return result
    }

    private static func isFolder(_ path: RawPath) -> Bool {
        var info = stat()
        return path.withCString { lstat($0, &info) } == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}

extension DirectoryListing {
    /// The names in `folder` that start with `prefix` (sync cookies waiting for their event).
    static func names(in folder: RawPath, startingWith prefix: String) -> [String] {
        guard let handle = folder.withCString({ opendir($0) }) else { return [] }
        defer { closedir(handle) }
        var result: [String] = []
        while let entry = readdir(handle) {
            let name = DirectoryEntry.name(entry)
            if name.starts(with: prefix.utf8) { result.append(String(decoding: name, as: UTF8.self)) }
        }
        return result
    }
}
