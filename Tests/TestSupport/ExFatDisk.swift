import Foundation
import Glibc

/// A small exFAT disk, as most USB sticks are formatted, mounted for a test through
/// exfat-fuse on a loop device: a filesystem with no hard links, no symlinks, no
/// RENAME_NOREPLACE and no permissions. Needs root, /dev/fuse, a free loop device and
/// Debian's exfat-fuse and exfatprogs (`scripts/bootstrap.sh` installs them); tests that
/// need one are enabled only where `canMount`.
public struct ExFatDisk {
    public let mountPoint: String
    private let image: String
    private let device: String

    public static let canMount: Bool = {
        geteuid() == 0 && access("/dev/fuse", R_OK | W_OK) == 0 && access("/dev/loop-control", R_OK | W_OK) == 0
            && [mkfs, mountProgram, "/usr/sbin/losetup"].allSatisfy { (program: String) in access(program, X_OK) == 0 }
    }()

    private static let mkfs = "/usr/sbin/mkfs.exfat"
    private static let mountProgram = "/usr/sbin/mount.exfat-fuse"

    /// Formats an image of `megabytes` beside `path` and mounts it on `path` (made if need
    /// be); `unmount()` takes it away with its image.
    public init(at path: String, megabytes: Int = 64) throws {
        mountPoint = path
        image = path + ".exfat.img"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: image, contents: nil), truncate(image, off_t(megabytes) << 20) == 0 else {
            throw SmallDiskError(message: "making the image \(image): \(String(cString: strerror(errno)))")
        }
        do {
            try Self.run(Self.mkfs, image)
            device = try Self.run("/usr/sbin/losetup", "--find", "--show", image).trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            unlink(image)
            throw error
        }
        do {
            try Self.run(Self.mountProgram, device, path)
        } catch {
            _ = try? Self.run("/usr/sbin/losetup", "--detach", device)
            unlink(image)
            throw error
        }
    }

    /// Kills the FUSE program serving the disk, as a crash would: the mount stays, and
    /// every call to it fails with ENOTCONN until it is unmounted. Returns once a call
    /// does (false if no program was found, or the mount never said so).
    public func killProgram() -> Bool {
        let killed = signalProgram(SIGKILL)
        // Until the kernel closes the connection, a call may fail otherwise (ECONNABORTED).
        let deadline = ContinuousClock.now + .seconds(10)
        var info = stat()
        while killed, ContinuousClock.now < deadline {
            if stat(mountPoint, &info) != 0, errno == ENOTCONN { return true }
            sched_yield()
        }
        return false
    }

    /// Stops the FUSE program serving the disk (SIGSTOP), as a network share's server that
    /// went away: every call to the mount then waits, until `resumeProgram()`. Whoever
    /// pauses it must resume it before anything else touches the mount (its removal too).
    public func pauseProgram() -> Bool {
        signalProgram(SIGSTOP)
    }

    public func resumeProgram() {
        _ = signalProgram(SIGCONT)
    }

    /// Sends `signal` to the mount.exfat-fuse serving this disk; whether one was found.
    private func signalProgram(_ signal: Int32) -> Bool {
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        var signalled = false
        for pid in processes.compactMap({ pid_t($0) }) {
            guard let bytes = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { continue }
            let arguments = bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            if arguments.first?.hasSuffix("mount.exfat-fuse") == true, arguments.contains(device) { signalled = kill(pid, signal) == 0 || signalled }
        }
        return signalled
    }

    /// Unmounts the disk (lazily if it is busy: the test's folder is removed next, and must
    /// not be removed through the mount) and frees its loop device and image.
    public func unmount() {
        if (try? Self.run("/usr/bin/umount", mountPoint)) == nil {
            _ = try? Self.run("/usr/bin/umount", "--lazy", mountPoint)
        }
        _ = try? Self.run("/usr/sbin/losetup", "--detach", device)
        unlink(image)
    }

    /// Runs `program` with `arguments`; its standard output, or an error naming the
    /// command and what it wrote. Spawned and waited for by hand: Foundation's
    /// `Process.waitUntilExit` never returns for mount.exfat-fuse, whose FUSE daemon
    /// lives on. Its output goes through a file, which the daemon keeps open.
    @discardableResult
    private static func run(_ program: String, _ arguments: String...) throws -> String {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-exfat-\(UUID().uuidString).log").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        defer { unlink(log) }
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, program, &actions, nil, argv, environ)
        guard spawned == 0 else { throw SmallDiskError(message: "\(program): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        var waited = waitpid(pid, &status, 0)
        while waited < 0 && errno == EINTR { waited = waitpid(pid, &status, 0) }
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        guard waited == pid, status == 0 else {
            throw SmallDiskError(message: "\(([program] + arguments).joined(separator: " ")) failed (wait status \(status)): \(text)")
        }
        return text
    }
}
