import Foundation
import Glibc
import UbiquitySettings

/// Creates the folders the daemon needs, with safe permissions.
enum Folders {
    static func prepare(_ settings: Settings, containers: [Container]) throws(DaemonError) {
        try makeFolder(settings.stateDirectory, mode: 0o700)
        try makePrivateRuntimeFolder(settings.runtimeDirectory)
        try makeFolder(settings.root, mode: 0o755)
        for container in containers {
            try makeFolder(container.folder, mode: 0o755)
            try makeFolder(container.documents, mode: 0o755)
        }
    }

    static func makeFolder(_ path: String, mode: mode_t) throws(DaemonError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: mode])
        } catch {
            throw DaemonError(message: "cannot create \(path): \(error.localizedDescription)")
        }
    }

    /// The runtime folder holds the API socket: it must be ours and private (0700), or
    /// another user could reach the socket.
    static func makePrivateRuntimeFolder(_ path: String) throws(DaemonError) {
        try makeFolder(path, mode: 0o700)
        var info = stat()
        guard lstat(path, &info) == 0 else { throw DaemonError.syscall("lstat", path: path) }
        guard info.st_uid == getuid(), (info.st_mode & S_IFMT) == S_IFDIR else {
            throw DaemonError(message: "the runtime folder \(path) is not a folder owned by you; remove it or set UBQ_RUNTIME_DIR")
        }
        if info.st_mode & 0o077 != 0, chmod(path, 0o700) != 0 { throw DaemonError.syscall("chmod", path: path) }
    }
}
