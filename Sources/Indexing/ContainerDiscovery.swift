import Glibc
import RawPaths
import UbiquitySettings

/// Finds the container folders under the root (every folder whose name is a container
/// id with '.' written as '~').
public enum ContainerDiscovery {
    public static func folderNames(in root: RawPath) -> [String] {
        names(in: root, ofType: DT_DIR)
    }

    /// The names under the root that would be container folders but are symbolic links:
    /// never followed out of the root, so not containers (the daemon says so).
    public static func linkedFolderNames(in root: RawPath) -> [String] {
        names(in: root, ofType: DT_LNK).filter { ContainerID(folderName: $0) != nil }
    }

    /// The root's entries of `type` (`DT_DIR`, `DT_LNK`). A filesystem that does not fill
    /// in the type (`DT_UNKNOWN`: some network ones) is asked with `lstat`.
    private static func names(in root: RawPath, ofType type: Int) -> [String] {
        guard let handle = root.withCString({ opendir($0) }) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = DirectoryEntry.name(entry)
            guard Self.type(of: entry, at: root.appending(name)) == type else { continue }
            names.append(String(decoding: name, as: UTF8.self))
        }
        return names.sorted()
    }

    static func type(of entry: UnsafePointer<dirent>, at path: RawPath) -> Int {
        let type = DirectoryEntry.type(entry)
        guard type == DT_UNKNOWN else { return type }
        var info = stat()
        guard path.withCString({ lstat($0, &info) }) == 0 else { return DT_UNKNOWN }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return DT_DIR
        case S_IFLNK: return DT_LNK
        default: return DT_UNKNOWN
        }
    }

    public static func containers(in root: RawPath) -> [ContainerID] {
        folderNames(in: root).compactMap(ContainerID.init(folderName:))
    }
}
