import CStatx
import Foundation
import Glibc
import RawPaths

/// Waiting out writers a test never had: descriptors other tests' children inherited.
///
/// Tests run in parallel in one process, and many spawn programs. A child holds a copy of
/// every descriptor its parent had open at the fork until it closes them or execs, so a
/// file this test wrote and closed a moment ago can still be open for writing in another
/// test's child, not yet scheduled on a loaded machine. A pass then finds it held by a
/// writer (a lease is refused, `LocalTree.writerWindow`) and rightly leaves it for later,
/// and a test that expected it published fails now and then. Measured here with
/// posix_spawn in a loop on one thread and write-close-lease on another: 907 of 20,000
/// leases refused, 179 with O_CLOEXEC (Foundation's `Data.write` does not set it).
enum InheritedWriters {
    /// Returns once no regular file below `folder` is open for writing anywhere, or after
    /// `limit`: a child execs or exits within milliseconds, so a writer still there at the
    /// end is one the test holds itself, and the pass is left to meet it. The limit is
    /// generous because the machine may not be: in one CI run, with every core busy, a
    /// 50 ms test took 75 s and found its file not published after a 5 s wait, most
    /// likely left for later as held by a writer
    /// (`NameFormTests.aRestoreWritesTheFileInTheFormThisDeviceHasIt`, session 46).
    static func waitUntilClosed(below folder: String, limit: Duration = .seconds(30)) {
        let deadline = ContinuousClock.now + limit
        var held = filesOpenForWriting(below: RawPath(folder))
        while !held.isEmpty, ContinuousClock.now < deadline {
            usleep(1_000)  // polls the kernel's answer: no event tells a descriptor closed
            held = held.filter(isOpenForWriting)
        }
    }

    private static func filesOpenForWriting(below folder: RawPath) -> [RawPath] {
        guard let listing = folder.withCString({ opendir($0) }) else { return [] }
        let names = DirectoryEntry.names(listing)
        closedir(listing)
        return names.flatMap { name -> [RawPath] in
            let path = folder.appending(name)
            var info = stat()
            guard path.withCString({ lstat($0, &info) }) == 0 else { return [] }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: return filesOpenForWriting(below: path)
            case S_IFREG: return isOpenForWriting(path) ? [path] : []
            default: return []
            }
        }
    }

    private static func isOpenForWriting(_ path: RawPath) -> Bool {
        let fd = path.withCString { open($0, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC) }
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return ubq_fd_has_writer(fd) == 1
    }
}
