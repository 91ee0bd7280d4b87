/// Where things are in a mirror folder (docs/MIRROR-FORMAT.md).
public struct MirrorLayout: Sendable {
    public let root: String

    public init(root: String) {
        self.root = root
    }

    public static let markerFileName = "ubiquity-mirror.json"
    public var marker: String { root + "/" + Self.markerFileName }
    public var incoming: String { root + "/store/incoming" }
    /// Where readers move objects that do not hash to their name (`DamagedObjects`).
    public var damaged: String { root + "/store/damaged" }
    public var devices: String { root + "/devices" }

    public func object(_ sha256: String) -> String {
        "\(objects)/\(Self.objectName(sha256))"
    }

    /// The folder of the content objects.
    public var objects: String { root + "/store/sha256" }

    /// Where object `sha256` is in `objects`.
    public static func objectName(_ sha256: String) -> String {
        "\(sha256.prefix(2))/\(sha256)"
    }

    /// Whether `name` can name an object: 64 lower-case hexadecimal digits.
    public static func isObjectName(_ name: some StringProtocol) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    public func deviceFile(_ device: String) -> String { "\(devices)/\(device).json" }

    public func logFolder(container: String) -> String { "\(root)/containers/\(container)/log" }

    public func log(container: String, device: String) -> String { "\(logFolder(container: container))/\(device).ndjson" }

    /// The plain tree `device` keeps of `container`'s synced state (docs/MIRROR-FORMAT.md, Views).
    public func view(container: String, device: String) -> String { "\(root)/containers/\(container)/current/\(device)" }

    /// The marker of a new mirror named `id` (`MirrorIdentity`).
    public static func markerContent(id: String) -> String {
        #"{"format": "ubiquity-mirror", "version": 1, "id": ""# + id + "\"}\n"
    }
}
