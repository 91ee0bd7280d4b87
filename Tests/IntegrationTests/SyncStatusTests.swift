import Foundation
import Testing

/// What a real `ubqd` tells about sync while it works: the `[sync]` settings it was given,
/// the progress of its passes, and the live ubiquity attributes of each item.
@Suite("Sync settings, progress and attributes of a real daemon", .serialized)
final class SyncStatusTests {
    let shared = SharedMirror()
    var mirror: String { shared.path }

    /// A device on the shared mirror, not started yet, with `config` as its config.toml.
    private func device(config: String? = nil) throws -> DaemonHarness {
        let device = try DaemonHarness()
        if let config { try device.writeConfig(config) }
        return shared.add(device)
    }

    private func start(_ device: DaemonHarness) throws {
        try device.start(extraEnvironment: ["UBQ_MIRROR": mirror])
    }

    /// The `sync.containers[0]` object of `ubq status --json`.
    private func containerStatus(_ device: DaemonHarness) throws -> [String: Any] {
        let reply = try JSONSerialization.jsonObject(with: try device.ubq(["status", "--json"]).output) as? [String: Any]
        let containers = (reply?["sync"] as? [String: Any])?["containers"] as? [[String: Any]]
        return try #require(containers?.first { $0["container"] as? String == "iCloud.org.ubiquity.Default" })
    }

    private func sync(_ device: DaemonHarness, _ arguments: [String] = [], exitStatus: Int32 = 0) throws {
        let result = try device.ubq(["sync"] + arguments)
        #expect(result.status == exitStatus, "ubq sync: \(result.errorText)")
        #expect(result.errorText.isEmpty, "no progress bar when standard error is not a terminal: \(result.errorText)")
    }

    /// The names `ubq ls` lists (the rows' paths end each line; the header has none).
    private func names(_ device: DaemonHarness, _ predicate: String) throws -> Set<String> {
        let listing = try device.ubq(["ls", predicate]).text
        return Set(listing.split(separator: "\n").filter { $0.contains("/") }.map { String($0.split(separator: "/").last ?? "") })
    }

    @Test func aConfiguredDeletionGuardHoldsASmallMassDeletion() throws {
        // Deleted while the daemon is stopped, the three deletions meet the guard together
        // in the start-up pass: a pass that saw a single deletion settle first would let it
        // through (below the minimum), leaving 2 held instead of 3.
        let a = try device(config: "[sync]\ndeletion_guard_percent = 10\ndeletion_guard_minimum = 2\n")
        try start(a)
        try a.shell("for n in $(seq 1 10); do echo $n > file-$n.txt; done")
        try sync(a)
        a.stop()
        try a.shell("rm file-1.txt file-2.txt file-3.txt")
        try start(a)
        try sync(a, ["--full"], exitStatus: 75)  // a pass reports the deletions it held, and is not done
        let held = try containerStatus(a)
        #expect(held["heldDeletions"] as? Int == 3, "the default guard (20 at least) would let 3 through: \(held)")
        #expect(held["phase"] as? String == "paused")

        try sync(a, ["--confirm-deletes", "--full"])
        #expect(try containerStatus(a)["heldDeletions"] as? Int == 0)
    }

    /// The other way out: `--restore-deletes` brings the held files back from the mirror.
    @Test func heldDeletionsAreUndoneWithRestoreDeletes() throws {
        let a = try device(config: "[sync]\ndeletion_guard_percent = 10\ndeletion_guard_minimum = 2\n")
        try start(a)
        try a.shell("mkdir -p notes && for n in $(seq 1 10); do echo $n > notes/file-$n.txt; done")
        try sync(a)
        try a.shell("rm -r notes")
        try sync(a, exitStatus: 75)
        #expect(try containerStatus(a)["message"] as? String ?? "" == "11 deletions wait: `ubq sync --confirm-deletes` publishes them, `ubq sync --restore-deletes` brings the files back")

        let both = try a.ubq(["sync", "--confirm-deletes", "--restore-deletes"])
        #expect(both.status == 64 && both.errorText.contains("give one"), "\(both.errorText)")
        try sync(a, ["--restore-deletes"])
        #expect(try String(contentsOfFile: a.documents + "/notes/file-7.txt", encoding: .utf8) == "7\n")
        let restored = try containerStatus(a)
        #expect(restored["heldDeletions"] as? Int == 0 && restored["phase"] as? String == "idle", "\(restored)")
        #expect(a.log().contains("11 held deletions undone"))
    }

    /// `ubq sync && poweroff` must not take a pass that left an item behind for success:
    /// here a name that is not UTF-8, which sync leaves out until it is renamed.
    @Test func anItemLeftOutMakesSyncFailUntilItIsFixed() throws {
        let a = try device()
        try start(a)
        try a.shell("echo ok > fine.txt && echo latin > \"$(printf 'caf\\351.txt')\"")
        try sync(a, ["--full"], exitStatus: 1)
        let failing = try containerStatus(a)
        #expect(failing["notSynced"] as? Int == 1 && failing["phase"] as? String == "idle", "\(failing)")
        #expect(failing["message"] as? String == "1 item not synced: the problems say why", "\(failing)")
        // The name as bash reads it back, to rename the file with.
        let problem = "the name $'Documents/caf\\xe9.txt' is not valid UTF-8; rename it"
        #expect((failing["problems"] as? [String] ?? []).contains { $0.contains(problem) }, "\(failing)")

        try a.shell("mv \"$(printf 'caf\\351.txt')\" cafe.txt")
        try sync(a, ["--full"])
        let fixed = try containerStatus(a)
        #expect(fixed["notSynced"] == nil && fixed["message"] == nil, "\(fixed)")
    }

    /// The status lists 20 problems; the others are counted, and `ubq sync` says how many
    /// more there are and where: before, 23 items not synced showed 20 reasons and no word
    /// of the other three.
    @Test func problemsBeyondTheTwentyListedAreCounted() throws {
        let a = try device()
        try start(a)
        try a.shell("for n in $(seq 23); do echo latin > \"$(printf 'caf\\351')-$n.txt\"; done")
        let result = try a.ubq(["sync", "--full"])
        #expect(result.status == 1, "\(result.errorText)")
        let status = try containerStatus(a)
        #expect(status["notSynced"] as? Int == 23 && (status["problems"] as? [String])?.count == 20, "\(status)")
        #expect(status["problemsOmitted"] as? Int == 3, "\(status)")
        #expect(result.text.contains("iCloud.org.ubiquity.Default: and 3 more problems: ubqd's log has them all"), "\(result.text)")
        let logged = a.log().components(separatedBy: "is not valid UTF-8").count - 1
        #expect(logged >= 23, "the log has every one: \(logged)")

        // A pass over one change (not --full) does not meet them again: they still count.
        try a.shell("echo ok > fine.txt")
        try sync(a, exitStatus: 1)
        let later = try containerStatus(a)
        #expect(later["notSynced"] as? Int == 23 && later["problemsOmitted"] as? Int == 3, "\(later)")
    }

    @Test func aLocalChangeIsPublishedAsSoonAsItIsIndexedNotAtTheNextPoll() throws {
        // Polling once a minute: only the index's news can start the pass within the wait.
        let a = try device(config: "[sync]\npoll_interval_ms = 60000\n")
        try start(a)
        try sync(a)
        try a.shell("echo now > prompt.txt")
        let published = waitUntil(seconds: 30) {
            (try? names(a, "NSMetadataUbiquitousItemIsUploadedKey == YES AND kMDItemFSName == 'prompt.txt'")) == ["prompt.txt"]
        }
        #expect(published, "log:\n\(a.log())")
    }

    /// `ubq versions` reads the other devices' logs, so the next poll finds no news in
    /// them: the paths it read are still due a pass, and the loop runs one when it next
    /// wakes. Before, another device's file that `ubq versions` was asked about waited for
    /// the next full pass (10 minutes) to arrive.
    @Test func anotherDevicesChangeReadByUbqVersionsStillArrives() throws {
        // Polling once a minute: the loop wakes when told of a local change.
        let a = try device()
        let b = try device(config: "[sync]\npoll_interval_ms = 60000\n")
        try start(a)
        try start(b)
        try sync(a)
        try sync(b)
        try a.shell("echo news > news.txt")
        try sync(a)
        let listed = try b.ubq(["versions", b.documents + "/news.txt"])
        #expect(listed.status == 0, "\(listed.errorText)")
        // A file named as sync's own staging files wakes the loop and is no change to sync.
        try b.shell("touch .ubq-sync-1.tmp")
        let arrived = waitUntil(seconds: 30) { FileManager.default.fileExists(atPath: b.documents + "/news.txt") }
        #expect(arrived, "log:\n\(b.log())")
    }

    @Test func aLongFirstSyncShowsConsistentProgressOnBothSides() throws {
        let a = try device()
        try FileManager.default.createDirectory(atPath: a.documents + "/many", withIntermediateDirectories: true)
        var bytes = 0
        for number in 0..<300 {
            let text = String(repeating: "p", count: 10 * number + 1)
            try Data(text.utf8).write(to: URL(fileURLWithPath: a.documents + "/many/\(number).txt"))
            bytes += text.utf8.count
        }
        try start(a)  // its first pass uploads them
        try expectProgressEnds(on: a, bytes: bytes)

        let b = try device()
        try start(b)  // its first pass downloads them
        try expectProgressEnds(on: b, bytes: bytes)
        try sync(b)
        #expect(try FileManager.default.contentsOfDirectory(atPath: b.documents + "/many").count == 300)
    }

    /// Polls the status until the pass with work has ended; every reading on the way
    /// must be consistent.
    private func expectProgressEnds(on device: DaemonHarness, bytes: Int) throws {
        var last: [String: Any]?
        let ended = waitUntil(seconds: 60) {
            guard let status = try? containerStatus(device) else { return false }
            if let progress = status["progress"] as? [String: Int] {
                #expect(progress["done"]! <= progress["total"]!, "\(progress)")
                #expect(progress["bytesDone"]! <= progress["bytesTotal"]!, "\(progress)")
            }
            last = status["lastProgress"] as? [String: Any]
            return (last?["total"] as? Int ?? 0) >= 300
        }
        #expect(ended, "log:\n\(device.log())")
        let tally = try #require(last as? [String: Int])
        #expect(tally["done"] == tally["total"], "\(tally)")
        #expect(tally["bytesDone"] == bytes, "\(tally)")
        #expect(tally["bytesTotal"] == bytes, "\(tally)")
    }

    @Test func attributesShowWaitingUploadsWhileThePausedMirrorIsAwayAndCurrentOnceBack() throws {
        let a = try device()
        try start(a)
        try a.shell("echo old > old.txt")
        try sync(a)
        try FileManager.default.moveItem(atPath: mirror, toPath: mirror + ".away")
        try a.shell("echo new > new.txt")
        try sync(a, ["--full"], exitStatus: 75)
        #expect(try containerStatus(a)["phase"] as? String == "paused")
        #expect(try names(a, "NSMetadataUbiquitousItemIsUploadingKey == YES") == ["new.txt"])
        #expect(try names(a, "NSMetadataUbiquitousItemIsUploadedKey == NO AND kMDItemFSName ENDSWITH '.txt'") == ["new.txt"])
        let waiting = try attributes(a, "new.txt")
        #expect((waiting["NSMetadataUbiquitousItemUploadingErrorKey"] as? String)?.contains("sync is paused") == true, "\(waiting)")

        try FileManager.default.moveItem(atPath: mirror + ".away", toPath: mirror)
        try sync(a)
        #expect(try names(a, "NSMetadataUbiquitousItemIsUploadingKey == YES").isEmpty)
        let published = try attributes(a, "new.txt")
        #expect(published["NSMetadataUbiquitousItemIsUploadingKey"] as? Bool == false)
        #expect(published["NSMetadataUbiquitousItemIsUploadedKey"] as? Bool == true)
        #expect(published["NSMetadataUbiquitousItemPercentUploadedKey"] as? Double == 100)
        #expect(published["NSMetadataUbiquitousItemIsDownloadingKey"] as? Bool == false)
        #expect(published["NSMetadataUbiquitousItemPercentDownloadedKey"] as? Double == 100)
        #expect(published["NSMetadataUbiquitousItemDownloadingStatusKey"] as? String == "NSMetadataUbiquitousItemDownloadingStatusCurrent")
        #expect(published["NSMetadataUbiquitousItemUploadingErrorKey"] == nil || published["NSMetadataUbiquitousItemUploadingErrorKey"] is NSNull)
    }

    private func attributes(_ device: DaemonHarness, _ name: String) throws -> [String: Any] {
        let result = try device.ubq(["mdls", "--json", device.documents + "/" + name])
        return try #require(try JSONSerialization.jsonObject(with: result.output) as? [String: Any])
    }
}
