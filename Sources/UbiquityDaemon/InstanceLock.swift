import Foundation
import Glibc

/// Makes sure one daemon at a time uses a state folder: an exclusive `flock` on
/// `STATE/ubqd.lock`, held for the process's life and released by the kernel when it
/// exits, however it exits.
public final class InstanceLock: Sendable {
    private let fd: Int32

    public init(stateDirectory: String) throws(DaemonError) {
        let path = stateDirectory + "/ubqd.lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw DaemonError.syscall("open", path: path) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            close(fd)
            throw DaemonError(
                message: "another ubqd (pid \(holder.isEmpty ? "unknown" : holder)) already uses the state folder \(stateDirectory); stop it first (systemctl --user stop ubqd) or pass a different --state-dir")
        }
        ftruncate(fd, 0)
        let pid = "\(getpid())\n"
        _ = pid.withCString { write(fd, $0, strlen($0)) }
        self.fd = fd
    }

    deinit { close(fd) }
}

/// A start-up failure, with a message that says what to do.
public struct DaemonError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }

    public init(message: String) {
        self.message = message
    }

    static func syscall(_ name: String, path: String, errno code: Int32 = errno) -> DaemonError {
        DaemonError(message: "\(name) \(path): \(String(cString: strerror(code)))")
    }
}
