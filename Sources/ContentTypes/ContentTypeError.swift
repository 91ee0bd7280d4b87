/// Why content types cannot be detected, with the file involved and the fix.
///
/// Example: `shared-mime-info database not found: /usr/share/mime/globs2 is missing
/// (searched /root/.local/share/mime, /usr/local/share/mime, /usr/share/mime).
/// Install it with: sudo apt-get install shared-mime-info`.
public struct ContentTypeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. Extensible: new codes may be added.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        fileprivate let name: String
        public var description: String { name }
        /// No usable shared-mime-info database (folder or `globs2` missing).
        public static let databaseMissing = Code(name: "databaseMissing")
        /// A database file exists but cannot be read.
        public static let databaseUnreadable = Code(name: "databaseUnreadable")
        /// libmagic could not be opened or its compiled database loaded.
        public static let magicUnavailable = Code(name: "magicUnavailable")
    }

    public var code: Code
    /// The file or folder concerned.
    public var path: String
    /// What went wrong and what to do about it.
    public var message: String

    public init(code: Code, path: String, message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    public var description: String { message }

    static let installHint = "Install it with: sudo apt-get install shared-mime-info"
}
