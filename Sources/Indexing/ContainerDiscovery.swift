import Glibc
import RawPaths
import UbiquitySettings

/// Finds the container folders under the root (every folder whose name is a container
/// id with '.' written as '~').
public enum ContainerDiscovery {
    public static func folderNames(in root: RawPath) -> [String] {
        guard let handle = root.withCString({ opendir($0) }) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            guard DirectoryEntry.type(entry) == DT_DIR else { continue }
            names.append(String(decoding: DirectoryEntry.name(entry), as: UTF8.self))
        }
        return names.sorted()
    }

    public static func containers(in root: RawPath) -> [ContainerID] {
        folderNames(in: root).compactMap(ContainerID.init(folderName:))
    }
}
