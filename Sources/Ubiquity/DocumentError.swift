import Foundation

/// Why a document could not be opened, saved, reverted or closed. The message names the
/// file, the failing step (and system call) and what to do about it.
public struct DocumentError: Error, Sendable, CustomStringConvertible {
    /// An extensible error code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// `open()` or `revert(toContentsOf:)` found no file.
        public static let fileNotFound = Code("fileNotFound")
        /// `save(to:for: .forCreating)` found a file already there (it is left alone).
        public static let fileExists = Code("fileExists")
        /// A system call reading or writing the file failed.
        public static let systemCallFailed = Code("systemCallFailed")
        /// The file changed on disk since this document read or wrote it; saving would lose
        /// that change, so nothing was written (the document is now `inConflict`).
        public static let changedOnDisk = Code("changedOnDisk")
        /// `load(fromContents:ofType:)` or `contents(forType:)` failed (damaged or unknown content).
        public static let contentsInvalid = Code("contentsInvalid")
        /// The call does not fit the document's state (opening an open document).
        public static let invalidState = Code("invalidState")
        /// The coordinated claim on the file could not be taken (timed out, cancelled).
        public static let coordinationFailed = Code("coordinationFailed")
    }

    public var code: Code
    public var message: String
    /// The document file concerned.
    public var path: String
    /// The failing system call, for `.systemCallFailed`.
    public var syscall: String?
    /// The `errno` of the failing system call.
    public var errno: Int32?
    /// The error that caused this one (a `CoordinationError`, an `ArchiveError`...).
    public var underlying: (any Error & Sendable)?

    public init(
        code: Code, message: String, path: String, syscall: String? = nil, errno: Int32? = nil,
        underlying: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.path = path
        self.syscall = syscall
        self.errno = errno
        self.underlying = underlying
    }

    public var description: String { message }

    /// A failed system call on `path`, with a hint for the usual causes.
    static func syscall(_ name: String, errno: Int32, path: String, step: String) -> DocumentError {
        let reason = String(cString: strerror(errno))
        var message = "\(step) \(path) failed: \(name): \(reason) (errno \(errno))"
        if let hint = hint(errno) { message += "; " + hint }
        let code: Code = errno == ENOENT && name == "open" && step == "reading" ? .fileNotFound : .systemCallFailed
        return DocumentError(code: code, message: message, path: path, syscall: name, errno: errno)
    }

    static func hint(_ errno: Int32) -> String? {
        switch errno {
        case ENOSPC, EDQUOT: return "free some space on that file system and save again (the old file is intact)"
        case EACCES, EPERM: return "check the permissions of the file and its folder"
        case ENOTDIR: return "a component of the path is a file, not a folder"
        case ENOENT: return "check that the folder exists (create it, or pass another path)"
        case ENAMETOOLONG: return "use a shorter file name (at most 255 bytes, with room for a temporary name)"
        case EROFS: return "the file system is read-only"
        case EISDIR: return "the path is a folder; give a file path"
        default: return nil
        }
    }

    static func coordination(_ error: CoordinationError, path: String, step: String) -> DocumentError {
        DocumentError(
            code: .coordinationFailed, message: "\(step) \(path): \(error.message)", path: path, underlying: error)
    }

    static func contents(_ error: any Error & Sendable, path: String, step: String) -> DocumentError {
        DocumentError(
            code: .contentsInvalid, message: "\(step) \(path) failed: \(error)", path: path,
            underlying: error)
    }
}
