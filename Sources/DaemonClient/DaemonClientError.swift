import APIModel

/// Why a call to `ubqd` failed, with what to do about it.
public struct DaemonClientError: Error, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable { case notRunning, rejected, protocolError }

    public var code: Code
    public var message: String
    /// The daemon's own error, when it answered with one.
    public var apiError: APIError?
    /// The HTTP status of the daemon's answer, when it answered with an error (docs/API.md,
    /// "Errors and limits": 404 `sync` is an unknown item or version, 409 `sync` a file with
    /// changes not synced yet).
    public var status: Int?

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    init(_ apiError: APIError, status: Int) {
        code = .rejected
        message = apiError.message
        self.apiError = apiError
        self.status = status
    }

    static func notRunning(socketPath: String, cause: any Error) -> DaemonClientError {
        DaemonClientError(
            .notRunning,
            "ubqd is not running (nothing answers at \(socketPath): \(cause)). Start it with `systemctl --user start ubqd`, or run `ubqd` in a terminal (`make run` in the source tree).")
    }

    public var description: String { message }
}
