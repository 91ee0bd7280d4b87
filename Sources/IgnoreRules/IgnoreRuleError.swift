/// A `.ubqignore` line (or base folder) that cannot be used, with a message a user can act on.
///
/// The message names the line and what is wrong with it, e.g.
/// `.ubqignore line 3: "[abc" has a '[' that is never closed; write "\[" for a literal '['`.
public struct IgnoreRuleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem this is. Extensible: new codes may be added.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        fileprivate let name: String
        public var description: String { name }
        /// A pattern git would never match (unclosed `[`, unknown `[:class:]`, lone `\`).
        public static let invalidPattern = Code(name: "invalidPattern")
        /// The base directory is absolute or contains `.` or `..` components.
        public static let invalidBaseDirectory = Code(name: "invalidBaseDirectory")
    }

    public var code: Code
    /// 1-based line number in the ignore file; 0 when the problem is not on a line.
    public var line: Int
    /// The problem and how to fix it.
    public var message: String

    public init(code: Code, line: Int, message: String) {
        self.code = code
        self.line = line
        self.message = message
    }

    public var description: String {
        line > 0 ? ".ubqignore line \(line): \(message)" : message
    }
}
