/// The one error type of the codec: a `Code` a caller can switch on, and a message that names
/// the offset, UID or key that was wrong, so a user can tell which part of a file is damaged.
public struct ArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Extensible error kinds (a struct rather than an enum so new kinds do not break callers).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        public var description: String { name }

        /// The bytes are neither a binary nor an XML property list.
        public static let notAPropertyList = Code(name: "notAPropertyList")
        /// A property list whose structure is broken (bad offset, truncated object, bad XML).
        public static let malformedPropertyList = Code(name: "malformedPropertyList")
        /// A well formed property list that is not a valid keyed archive.
        public static let invalidArchive = Code(name: "invalidArchive")
        /// A size, count or depth above the limits that keep decoding bounded.
        public static let limitExceeded = Code(name: "limitExceeded")
        /// A value that cannot be written (for example a dictionary key that is not a string
        /// in XML) or a type mismatch while decoding into a Swift type.
        public static let unsupportedValue = Code(name: "unsupportedValue")
        /// The JSON given to build an archive does not follow `nska-json-v1`.
        public static let invalidJSON = Code(name: "invalidJSON")
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "ArchiveError: \(message)" }
}

extension ArchiveError {
    static func malformed(_ message: String) -> ArchiveError { ArchiveError(.malformedPropertyList, message) }
    static func invalid(_ message: String) -> ArchiveError { ArchiveError(.invalidArchive, message) }
    static func limit(_ message: String) -> ArchiveError { ArchiveError(.limitExceeded, message) }
}

/// Limits that bound the work and memory a damaged or hostile input can cause.
public struct DecodingLimits: Sendable {
    /// Deepest nesting of containers accepted in a property list or a rendered tree.
    public var maxDepth: Int
    /// Most nodes a JSON rendering may expand (shared objects are expanded at every path).
    public var maxRenderedNodes: Int

    public init(maxDepth: Int = 512, maxRenderedNodes: Int = 5_000_000) {
        self.maxDepth = maxDepth
        self.maxRenderedNodes = maxRenderedNodes
    }

    public static let standard = DecodingLimits()
}
