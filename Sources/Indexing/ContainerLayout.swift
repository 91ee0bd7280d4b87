import SystemPackage
import UbiquitySettings

/// Where a path below the root belongs: which container, and the path inside it.
///
/// The watcher watches the whole root; its first path component names the container
/// folder (`iCloud~com~example~Diary`). Anything at the root that is not a container
/// folder is not indexed.
public struct ContainerLayout: Sendable {
    public let root: FilePath

    public init(root: FilePath) {
        self.root = root
    }

    public struct Location: Sendable, Hashable {
        public var container: ContainerID
        /// The path below the container folder; empty for the container folder itself.
        public var relativePath: FilePath
    }

    /// The container location of a root-relative path, or nil when it is not inside a container.
    public func locate(_ rootRelative: FilePath) -> Location? {
        guard let first = rootRelative.components.first, let id = ContainerID(folderName: first.string) else { return nil }
        return Location(container: id, relativePath: FilePath(root: nil, rootRelative.components.dropFirst()))
    }

    public func folder(of container: ContainerID) -> FilePath {
        root.appending(container.folderName)
    }

    public func absolute(_ location: Location) -> FilePath {
        folder(of: location.container).appending(location.relativePath.components)
    }

    /// "Diary" for `iCloud.com.example.Diary`: what NSMetadataUbiquitousItemContainerDisplayNameKey shows.
    public static func displayName(of container: ContainerID) -> String {
        container.identifier.split(separator: ".").last.map(String.init) ?? container.identifier
    }
}
