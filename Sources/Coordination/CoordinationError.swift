import Foundation

/// Why a coordinated access did not run. The message names the path and, for a failed
/// system call, the call and the lock file, so a user knows what to do.
public struct CoordinationError: Error, Sendable, CustomStringConvertible {
    /// An extensible error code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The claim could not be taken before the timeout; `holders` says who held it.
        public static let timedOut = Code("timedOut")
        /// `FileCoordinator.cancel()` or task cancellation ended the wait.
        public static let cancelled = Code("cancelled")
        /// A system call on the lock directory or a lock file failed.
        public static let systemCallFailed = Code("systemCallFailed")
        /// The URL is not a file URL.
        public static let invalidURL = Code("invalidURL")
        /// The lock directory, or the folder holding it, is not private to this user.
        public static let untrustedLockDirectory = Code("untrustedLockDirectory")
    }

    public var code: Code
    public var message: String
    /// The item the claim was for, as a displayable path.
    public var path: String?
    /// The failing system call, for `.systemCallFailed`.
    public var syscall: String?
    /// The `errno` of the failing system call.
    public var errno: Int32?
    /// Who held the conflicting claim, for `.timedOut`, when they recorded it.
    public var holders: [ClaimHolder]

    public init(
        code: Code, message: String, path: String? = nil, syscall: String? = nil,
        errno: Int32? = nil, holders: [ClaimHolder] = []
    ) {
        self.code = code
        self.message = message
        self.path = path
        self.syscall = syscall
        self.errno = errno
        self.holders = holders
    }

    public var description: String { message }

    static func syscall(_ name: String, _ error: Errno, path: String, detail: String) -> CoordinationError {
        CoordinationError(
            code: .systemCallFailed,
            message: "\(name) failed on \(detail) while coordinating \(path): \(error) (errno \(error.rawValue))",
            path: path, syscall: name, errno: error.rawValue)
    }

    static func cancelled(path: String) -> CoordinationError {
        CoordinationError(code: .cancelled, message: "coordinated access to \(path) was cancelled", path: path)
    }

    static func timedOut(path: String, access: String, after timeout: Duration, holders: [ClaimHolder]) -> CoordinationError {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let who = holders.isEmpty
            ? "the holder recorded no information (or released just now)"
            : "held by " + holders.map(\.description).joined(separator: "; ")
        return CoordinationError(
            code: .timedOut,
            message: "timed out after \(String(format: "%.3g", seconds)) s waiting to \(access) \(path): \(who)",
            path: path, holders: holders)
    }
}

/// A process holding a claim, as it recorded itself in the lock file.
public struct ClaimHolder: Hashable, Sendable, CustomStringConvertible {
    public enum Access: String, Hashable, Sendable {
        case reading, writing
    }

    public var pid: Int32
    /// The program name (basename of its `argv[0]`).
    public var command: String
    /// When the claim was taken.
    public var since: Date
    /// What the holder claimed: the item it reads or writes (maybe below the contended path).
    public var access: Access
    public var path: String
    /// Whether the holder's lock on the contended lock file is exclusive.
    var exclusive: Bool

    public var description: String {
        let date = since.formatted(.iso8601)
        return "pid \(pid) (\(command)) \(access.rawValue) \(path) since \(date)"
    }
}
