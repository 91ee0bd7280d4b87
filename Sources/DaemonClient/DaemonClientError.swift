import APIModel

/// Why a call to `ubqd` failed, with what to do about it.
public struct DaemonClientError: Error, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable { case notRunning, rejected, protocolError }

    public var code: Code
    public var message: String
    /// The daemon's own error, when it answered with one.
    public var apiError: APIError?

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    init(_ apiError: APIError) {
        code = .rejected
        message = apiError.message
        self.apiError = apiError
    }

    static func notRunning(socketPath: String, cause: any Error) -> DaemonClientError {
        DaemonClientError(
            .notRunning,
            "ubqd is not running (nothing answers at \(socketPath): \(cause)). Start it with `systemctl --user start ubqd`, or run `ubqd` in a terminal (`make run` in the source tree).")
    }

    public var description: String { message }
}
