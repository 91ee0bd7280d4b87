import Glibc
import RawPaths
import UbiquitySettings

/// Where a path below the root belongs: which container, and the path inside it.
///
/// The watcher watches the whole root; its first path component names the container
/// folder (`iCloud~com~example~Diary`). Anything at the root that is not a container
/// folder is not indexed.
public struct ContainerLayout: Sendable {
    public let root: RawPath

    public init(root: RawPath) {
        self.root = root
    }

    public struct Location: Sendable, Hashable {
        public var container: ContainerID
        /// The path below the container folder; empty for the container folder itself.
        public var relativePath: RawPath
    }

    /// The container location of a root-relative path, or nil when it is not inside a container.
    public func locate(_ rootRelative: RawPath) -> Location? {
        guard let first = rootRelative.firstComponent, let id = ContainerID(folderName: String(decoding: first, as: UTF8.self)) else { return nil }
        return Location(container: id, relativePath: rootRelative.droppingFirst(1))
    }

    public func folder(of container: ContainerID) -> RawPath {
        root.appending(container.folderName)
    }

    public func absolute(_ location: Location) -> RawPath {
        folder(of: location.container).appending(location.relativePath)
    }

    /// `location`, or the deepest folder above it whose absolute path the kernel takes
    /// (shorter than PATH_MAX, 4096 bytes): a scan must start there to reach a tree deeper
    /// than that, which it walks with relative calls.
    public func reachable(_ location: Location) -> Location {
        var reachable = location
        while !reachable.relativePath.isEmpty && absolute(reachable).bytes.count >= Int(PATH_MAX) {
            reachable.relativePath = reachable.relativePath.removingLastComponent()
        }
        return reachable
    }

    /// "Diary" for `iCloud.com.example.Diary`: what NSMetadataUbiquitousItemContainerDisplayNameKey shows.
    public static func displayName(of container: ContainerID) -> String {
        container.identifier.split(separator: ".").last.map(String.init) ?? container.identifier
    }
}
