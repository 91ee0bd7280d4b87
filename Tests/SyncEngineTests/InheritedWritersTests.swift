import Foundation
import Glibc
import RawPaths
import Testing

/// A child spawned while a file was open for writing holds the file open too, until it
/// closes it, execs (with O_CLOEXEC) or exits: a pass leaves such a file for later
/// (`InheritedWriters`). `TestDevice.sync` waits the child out, so tests that spawn
/// programs on other threads do not make a file written here wait now and then.
@Suite("A file a spawned child inherited open")
struct InheritedWritersTests {
    @Test func waitsForTheChildToLetGoThenIsPublished() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        let child = try Self.childHolding(a.documents + "/doc.txt", written: "text")
        defer { child.finish() }

        #expect(a.sync(holdingAWriter: true).deferred == ["Documents/doc.txt"], "the child's descriptor is a writer's")
        child.letGo()
        let report = a.sync()
        b.sync()

        #expect(report.deferred.isEmpty && report.problems.isEmpty, "\(report)")
        #expect(b.read("doc.txt") == "text")
    }

    /// A child that inherited `path` open for writing, `text` written to it, and holds it
    /// (the parent's own descriptor closed) until `letGo()`.
    private static func childHolding(_ path: String, written text: String) throws -> HoldingChild {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)  // no O_CLOEXEC, as Data.write
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        guard write(fd, text, text.utf8.count) == text.utf8.count else { throw POSIXError(.EIO) }
        return try HoldingChild()
    }
}

/// A shell reading a pipe: it keeps every descriptor it inherited until a moment after the
/// pipe's writing end, held here, is closed (a child still to be scheduled, as on a loaded
/// machine).
private final class HoldingChild {
    private var pipeEnds: [Int32] = [-1, -1]
    private let pid: pid_t

    init() throws {
        guard pipe(&pipeEnds) == 0 else { throw POSIXError(.EMFILE) }
        fcntl(pipeEnds[1], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[0], 0)
        var child: pid_t = 0
        let words = ["sh", "-c", "cat >/dev/null; sleep 0.2"]
        let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        guard posix_spawnp(&child, "sh", &actions, nil, arguments, environ) == 0 else { throw POSIXError(.ECHILD) }
        pid = child
        close(pipeEnds[0])
    }

    /// Closes the pipe: the child exits a moment later.
    func letGo() {
        guard pipeEnds[1] >= 0 else { return }
        close(pipeEnds[1])
        pipeEnds[1] = -1
    }

    /// Lets go, and waits for the child to exit.
    func finish() {
        letGo()
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}
