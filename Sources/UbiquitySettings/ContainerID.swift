/// The identifier of a container: one app's space under the root, such as
/// `iCloud.com.example.Diary`.
///
/// An id is reverse-DNS-ish: at least two non-empty components separated by `.`, each made of
/// ASCII letters, digits, `-` and `_`. Its folder under the root swaps every `.` for `~`, as
/// Apple's `Mobile Documents` does: `iCloud.com.example.Diary` ↔ `iCloud~com~example~Diary`.
/// The swap is one byte for one byte, so an id is at most 255 bytes, the longest folder name
/// Linux filesystems allow. Ids are case-sensitive, like the folders that hold them.
public struct ContainerID: Sendable, Hashable, Codable, CustomStringConvertible, Comparable {
    /// The dotted form, `iCloud.com.example.Diary`.
    public let identifier: String

    /// The container that exists with zero configuration.
    public static let defaultContainer = ContainerID(unchecked: "iCloud.org.ubiquity.Default")

    /// The longest id: the longest folder name on ext4, btrfs, xfs and tmpfs.
    public static let maximumLength = 255

    /// Validates `identifier`; throws ``SettingsError/Code-swift.struct/invalidContainerID``
    /// with the reason and an example of a good id.
    public init(_ identifier: String) throws(SettingsError) {
        if let problem = Self.problem(in: identifier) {
            throw SettingsError(
                code: .invalidContainerID,
                message: "\"\(identifier)\" is not a valid container id: \(problem); "
                    + "use letters, digits, '-' and '_' in dot-separated parts, "
                    + "e.g. \(Self.defaultContainer.identifier)",
                key: identifier)
        }
        self.identifier = identifier
    }

    /// The id whose folder is `folderName` (`iCloud~com~example~Diary`), or nil when the name
    /// is not a container folder (no `~`, a `.` in it, an empty part, another character).
    ///
    /// The swaps work on the UTF-8 bytes, not on characters: the indexer maps every path it
    /// looks at to its container, and through `Character`s that took about 6 µs a name
    /// instead of 1 (perf samples of a 1% re-sync of 100,000 files: 3% of the daemon's CPU).
    /// A `~` or `.` carrying a combining mark is swapped or refused by bytes where
    /// characters would keep it, but such a name is no id either way.
    public init?(folderName: String) {
        let bytes = folderName.utf8
        guard !bytes.contains(UInt8(ascii: ".")), bytes.contains(UInt8(ascii: "~")) else { return nil }
        let identifier = Self.swapping(UInt8(ascii: "~"), for: UInt8(ascii: "."), in: folderName)
        guard Self.problem(in: identifier) == nil else { return nil }
        self.identifier = identifier
    }

    private init(unchecked identifier: String) {
        self.identifier = identifier
    }

    /// The folder name under the root: every `.` becomes `~`.
    public var folderName: String {
        Self.swapping(UInt8(ascii: "."), for: UInt8(ascii: "~"), in: identifier)
    }

    private static func swapping(_ old: UInt8, for new: UInt8, in text: String) -> String {
        String(decoding: text.utf8.map { $0 == old ? new : $0 }, as: UTF8.self)
    }

    public var description: String { identifier }

    public static func < (lhs: ContainerID, rhs: ContainerID) -> Bool {
        lhs.identifier < rhs.identifier
    }

    /// Why `identifier` is not a valid id, or nil when it is.
    static func problem(in identifier: String) -> String? {
        if identifier.isEmpty { return "it is empty" }
        if identifier.utf8.count > maximumLength {
            return "it is \(identifier.utf8.count) bytes long, more than \(maximumLength)"
        }
        if let bad = identifier.unicodeScalars.first(where: { !isAllowed($0) }) {
            return "\(describe(bad)) is not allowed"
        }
        let parts = identifier.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if parts.contains(where: \.isEmpty) {
            return "it has an empty part (a leading, trailing or doubled '.')"
        }
        if parts.count < 2 { return "it needs at least two dot-separated parts" }
        return nil
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": true
        default: false
        }
    }

    private static func describe(_ scalar: Unicode.Scalar) -> String {
        if scalar.properties.isWhitespace || scalar.value < 0x20 || scalar.value == 0x7F {
            return "the character U+\(String(scalar.value, radix: 16, uppercase: true))"
        }
        return "'\(scalar)'"
    }

    // MARK: Codable, as the plain dotted string

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let identifier = try container.decode(String.self)
        do {
            try self.init(identifier)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }
}

/// A container as it lies on disk under the root.
public struct Container: Sendable, Hashable, Codable {
    /// Its identifier, `iCloud.com.example.Diary`.
    public var id: ContainerID
    /// The absolute path of its folder, `ROOT/iCloud~com~example~Diary`.
    public var folder: String
    /// The absolute path of its documents scope, ``folder`` + `/Documents`. Everything else in
    /// ``folder`` is the data scope.
    public var documents: String

    /// The container `id` under `root` (an absolute path).
    public init(id: ContainerID, root: String) {
        self.id = id
        self.folder = root == "/" ? "/" + id.folderName : root + "/" + id.folderName
        self.documents = folder + "/Documents"
    }
}
