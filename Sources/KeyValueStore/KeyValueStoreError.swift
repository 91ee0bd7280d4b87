/// Why a value could not be set, or a store file read. The message says which key or file,
/// what limit, and what to do.
public struct KeyValueStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// A key longer than `KeyValueLimits.keyBytes`, or empty.
        public static let invalidKey = Code("invalidKey")
        /// A value that is no property-list value a store holds (a UID, a set, a
        /// dictionary with keys that are not strings).
        public static let invalidValue = Code("invalidValue")
        /// The store would hold more keys or bytes than `KeyValueLimits` allows.
        public static let quotaExceeded = Code("quotaExceeded")
        /// The store's file is not a key-value store this version reads.
        public static let unreadableFile = Code("unreadableFile")
        /// Reading or writing the store's file failed.
        public static let fileAccess = Code("fileAccess")
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
