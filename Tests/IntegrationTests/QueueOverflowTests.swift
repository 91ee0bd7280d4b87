import Foundation
import Glibc
import Testing

/// A burst larger than the kernel's inotify queue overflows it: the events lost may be
/// the ones that keep the watches true (a folder made, a folder renamed). Afterwards the
/// daemon must see changes everywhere again, not only the state the rescan found.
@Suite(.serialized) struct QueueOverflowTests {
    @Test func afterAnOverflowNewAndRenamedFoldersAreWatched() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        try daemon.shell("mkdir a burst && echo old > a/old.txt")
        try daemon.expectIndexMatchesDisk()
        let pid = try #require(daemon.process?.processIdentifier)
        // Stopped, the daemon reads nothing: with at least one event a file, this many
        // files overflow the queue, and the folder events after them are lost.
        let queue = Int((try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 16_384
        kill(pid, SIGSTOP)
        defer { kill(pid, SIGCONT) }
        try daemon.shell("for i in $(seq \(queue + 1000)); do echo $i > burst/f$i; done && mkdir new && mv a b")
        kill(pid, SIGCONT)
        try daemon.waitForLog("inotify queue overflowed")
        try daemon.expectIndexMatchesDisk()
        try daemon.shell("echo n > new/n.txt && echo m > b/m.txt && rm b/old.txt")
        try daemon.expectIndexMatchesDisk()
    }
}
