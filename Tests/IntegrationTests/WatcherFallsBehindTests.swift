import Foundation
import Glibc
import Testing

/// The watcher reads events some time after they happen (ubqd is stopped here, with
/// SIGSTOP, to make that time long). Whatever happened meanwhile, the daemon must then see
/// changes everywhere, not only the state its rescans found.
@Suite(.serialized) struct WatcherFallsBehindTests {
    /// A burst larger than the kernel's inotify queue overflows it: the events lost may be
    /// the ones that keep the watches true (a folder made, a folder renamed, folders
    /// deleted: their watches are forgotten, not removed, which failed and printed
    /// "Failed to remove watch" to the log for each).
    @Test func afterAnOverflowNewAndRenamedFoldersAreWatched() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        try daemon.shell("mkdir a burst && echo old > a/old.txt && mkdir -p gone/a/b gone/c")
        try daemon.expectIndexMatchesDisk()
        let pid = try #require(daemon.process?.processIdentifier)
        // Stopped, the daemon reads nothing: with at least one event a file, this many
        // files overflow the queue, and the folder events after them are lost.
        let queue = Int((try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 16_384
        kill(pid, SIGSTOP)
        defer { kill(pid, SIGCONT) }
        try daemon.shell("for i in $(seq \(queue + 1000)); do echo $i > burst/f$i; done && mkdir new && mv a b && rm -r gone")
        kill(pid, SIGCONT)
        try daemon.waitForLog("inotify queue overflowed")
        try daemon.expectIndexMatchesDisk()
        try daemon.shell("echo n > new/n.txt && echo m > b/m.txt && rm b/old.txt")
        try daemon.expectIndexMatchesDisk()
        #expect(!daemon.log().contains("Failed to remove watch"), "log:\n\(daemon.log())")
    }

    /// A deleted folder's watch is gone with it (the kernel says so with IN_IGNORED): the
    /// watcher forgets it without asking libinotifytools to remove it, which failed and
    /// printed "Failed to remove watch on …: Unknown error -1" to the log for every folder
    /// of an `rm -rf`. A folder made again at the same path is watched.
    @Test func aDeletedFolderTreeLeavesTheLogCleanAndCanBeMadeAgain() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        try daemon.shell("mkdir -p t/a/b t/c && echo x > t/a/b/x.txt")
        try daemon.expectIndexMatchesDisk()
        try daemon.shell("rm -rf t")
        try daemon.expectIndexMatchesDisk()
        try daemon.shell("mkdir -p t/a/b && echo y > t/a/b/y.txt")
        try daemon.expectIndexMatchesDisk()
        try daemon.shell("echo later > t/a/b/later.txt")  // seen through the new folder's watch
        try daemon.expectIndexMatchesDisk()
        #expect(!daemon.log().contains("Failed to remove watch"), "log:\n\(daemon.log())")
    }

    /// `mkdir w/c && mv w v` faster than the watcher reads: when it comes to the creation
    /// of `c`, `w/c` is gone, so `c` is watched only if the move looks below `v`.
    @Test func aFolderMadeJustBeforeItsParentWasRenamedIsWatched() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        try daemon.shell("mkdir w")
        try daemon.expectIndexMatchesDisk()
        let pid = try #require(daemon.process?.processIdentifier)
        kill(pid, SIGSTOP)
        defer { kill(pid, SIGCONT) }
        try daemon.shell("mkdir w/c && mv w v")
        kill(pid, SIGCONT)
        try daemon.expectIndexMatchesDisk()
        try daemon.shell("echo later > v/c/later.txt")
        try daemon.expectIndexMatchesDisk()
    }
}
