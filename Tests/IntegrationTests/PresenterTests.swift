import Foundation
import Glibc
import Testing

/// File presenters across real processes, through the real ubqd: a `presenter-probe`
/// presents a file or a folder and prints every call it gets; other processes write.
@Suite(.serialized) struct PresenterTests {
    /// A running daemon with `f.txt` ("hello\n") indexed, so no change is still settling.
    func daemonWithFile() throws -> (DaemonHarness, String) {
        let daemon = try DaemonHarness()
        try daemon.start()
        try daemon.shell("echo hello > f.txt")
        #expect(try daemon.indexedItems().keys.contains { $0.hasSuffix("/f.txt") })
        return (daemon, daemon.documents + "/f.txt")
    }

    @Test func aPresenterIsAskedToRelinquishBeforeACoordinatedWriteAndToldAfterThenHearsAPlainAppend() throws {
        let (daemon, file) = try daemonWithFile()
        let presenter = try PresenterProbeProcess(daemon, ["present", file])
        #expect(try presenter.next() == "registered")

        let writer = try daemon.ubq(["coordinate", "--write", file, "--", "sh", "-c", "echo more >> \"$0\"", file])
        #expect(writer.status == 0, "\(writer.errorText)")
        #expect(try presenter.next() == "relinquishToWriter size=6")  // before the write: "hello\n"
        #expect(try presenter.next() == "reacquire")
        #expect(try presenter.next() == "didChange size=11")  // after it: "hello\nmore\n"

        try daemon.shell("echo plain >> f.txt")  // a program that does not coordinate
        #expect(try presenter.next() == "didChange size=17")
    }

    @Test func aFolderPresenterHearsOfItemsAppearingAndChangingInside() throws {
        let (daemon, _) = try daemonWithFile()
        let presenter = try PresenterProbeProcess(daemon, ["present", daemon.documents])
        #expect(try presenter.next() == "registered")
        try daemon.shell("echo new > n.txt")
        #expect(try presenter.next(skipping: ["didChange"]) == "subitemDidAppear \(daemon.documents)/n.txt")
        try daemon.shell("echo more >> n.txt")
        #expect(try presenter.next(skipping: ["didChange"]) == "subitemDidChange \(daemon.documents)/n.txt")
    }

    @Test func aPresenterThatNeverAnswersIsSkippedAtTheDeadlineAndTheWriterGoesOn() throws {
        let (daemon, file) = try daemonWithFile()
        let silent = try PresenterProbeProcess(daemon, ["present", file, "--silent"])
        #expect(try silent.next() == "registered")
        let writer = try PresenterProbeProcess(daemon, ["write", file, "--deadline", "0.5"])
        let accessing = try writer.next()
        let milliseconds = Double(accessing.split(separator: " ").last ?? "") ?? -1
        #expect(accessing.hasPrefix("accessing"))
        #expect(milliseconds >= 500 && milliseconds < 5000, "\(accessing)")
        #expect(try writer.next() == "done")
        #expect(try silent.next().hasPrefix("relinquishToWriter"))
        try daemon.waitForLog("did not answer within 0.5 seconds")
    }

    @Test func aCoordinatedWriteGoesAheadWhenUbqdIsStoppedMidway() throws {
        let (daemon, file) = try daemonWithFile()
        let presenter = try PresenterProbeProcess(daemon, ["present", file])
        #expect(try presenter.next() == "registered")
        let pid = try #require(daemon.process?.processIdentifier)
        kill(pid, SIGSTOP)  // ubqd hangs: the writer must give up on it, not on its write
        let writer = try? PresenterProbeProcess(daemon, ["write", file, "--deadline", "0.2"])
        let accessing = try? writer?.next(timeout: .seconds(60))
        let done = try? writer?.next()
        kill(pid, SIGCONT)
        #expect(accessing?.hasPrefix("accessing") == true)
        #expect(done == "done")
        withExtendedLifetime(daemon) {}  // stopped only after it was continued
    }

    @Test func ubqPresentersListsARegisteredPresenterUntilItsProcessDies() throws {
        let (daemon, file) = try daemonWithFile()
        let presenter = try PresenterProbeProcess(daemon, ["present", file])
        #expect(try presenter.next() == "registered")
        let listed = try presenters(daemon)
        #expect(listed.count == 1)
        #expect(listed.first?["pid"] as? Int == Int(presenter.pid))
        #expect(listed.first?["program"] as? String == "presenter-probe")
        #expect(listed.first?["path"] as? String == file)
        #expect(try daemon.ubq(["presenters"]).text.contains("presenter-probe"))
        presenter.kill()
        let deadline = ContinuousClock.now + .seconds(30)
        while try !presenters(daemon).isEmpty {  // the daemon notices the closed connection
            guard ContinuousClock.now < deadline else { throw HarnessError("the dead presenter is still listed") }
            usleep(20_000)
        }
    }

    @Test func aRemovedPresenterHearsNothingMore() throws {
        let (daemon, file) = try daemonWithFile()
        let presenter = try PresenterProbeProcess(daemon, ["present", file])
        #expect(try presenter.next() == "registered")
        presenter.send("remove")
        #expect(try presenter.next() == "removed")
        #expect(try presenters(daemon).isEmpty)
        try daemon.shell("echo plain >> f.txt")
        #expect(try daemon.ubq(["coordinate", "--write", file, "--", "true"]).status == 0)
        presenter.send("remove")  // a marker: anything heard in between would come first
        #expect(try presenter.next() == "removed")
    }

    @Test func aPlainRenameIsAMoveAndARemovalADeletionForThePresenter() throws {
        let (daemon, file) = try daemonWithFile()
        let presenter = try PresenterProbeProcess(daemon, ["present", file])
        #expect(try presenter.next() == "registered")
        try daemon.shell("mv f.txt g.txt")
        #expect(try presenter.next() == "didMove \(daemon.documents)/g.txt")
        #expect(try presenters(daemon).first?["path"] as? String == daemon.documents + "/g.txt")  // it follows the item
        try daemon.shell("rm g.txt")
        #expect(try presenter.next() == "accommodateDeletion")
    }

    /// Folders made a moment before the move are read whole by the watcher, which reports
    /// no removal or appearance of the file itself: ubqd finds it in them by its inode.
    @Test func aMoveIntoFoldersJustMadeIsAMoveForThePresenter() throws {
        let (daemon, file) = try daemonWithFile()
        let presenter = try PresenterProbeProcess(daemon, ["present", file])
        #expect(try presenter.next() == "registered")
        try daemon.shell("mkdir -p N/a/b/c && mv f.txt N/a/b/c/")
        #expect(try presenter.next() == "didMove \(daemon.documents)/N/a/b/c/f.txt")
    }

    /// Sync renames the file as another device did, under a coordinated move: the presenter
    /// lets go first, then hears of the move, not of a deletion.
    @Test func aRenameOnAnotherDeviceIsAMoveForThePresenter() throws {
        let mirror = SharedMirror()
        let (a, b) = try mirror.twoDevices()
        try a.shell("mkdir Notes; echo hello > Notes/f.txt")
        try mirror.sync(a, b)
        let presenter = try PresenterProbeProcess(a, ["present", a.documents + "/Notes/f.txt"])
        #expect(try presenter.next() == "registered")

        try b.shell("mv Notes/f.txt Notes/g.txt")
        try mirror.sync(b, a)
        #expect(try presenter.next() == "relinquishToWriter size=6")
        #expect(try presenter.next() == "reacquire")
        #expect(try presenter.next() == "didMove \(a.documents)/Notes/g.txt")

        try b.shell("mv Notes Renamed")  // a renames the folder whole, and the file with it
        try mirror.sync(b, a)
        let heard = try presenter.next(skipping: ["relinquishToWriter", "reacquire"])  // named, so a failure shows it
        #expect(heard == "didMove \(a.documents)/Renamed/g.txt")
    }

    /// Sync deletes the file another device deleted under a claim `.forDeleting`: the
    /// presenter is asked to accommodate the deletion before it happens (an app closes the
    /// document then), not told after.
    @Test func aDeletionOnAnotherDeviceIsAccommodatedBeforeItHappens() throws {
        let mirror = SharedMirror()
        let (a, b) = try mirror.twoDevices()
        try a.shell("echo hello > f.txt")
        try mirror.sync(a, b)
        let presenter = try PresenterProbeProcess(a, ["present", a.documents + "/f.txt"])
        #expect(try presenter.next() == "registered")

        try b.shell("rm f.txt")
        try mirror.sync(b, a)
        #expect(try presenter.next() == "relinquishToWriter size=6")
        #expect(try presenter.next() == "accommodateDeletion")
        #expect(try presenter.next() == "reacquire")
        #expect(!FileManager.default.fileExists(atPath: a.documents + "/f.txt"))
    }

    /// The folder's own presenter hears that it moved: a renames it whole (`FolderMove`).
    /// Renamed item by item, the folder was made anew and the old one removed: its
    /// presenter heard `accommodateDeletion`. Device a reads the mirror only when told
    /// (`ubq sync`): polling it every 100 ms, it could read b's log while b was still
    /// appending the rename, and plan with part of it (a folder then moves item by item).
    @Test func aFolderRenamedOnAnotherDeviceIsAMoveForItsPresenter() throws {
        let mirror = SharedMirror()
        let (a, b) = try mirror.twoDevices(firstConfig: "[sync]\npoll_interval_ms = 60000\n")
        try a.shell("mkdir -p Notes/inner; echo hello > Notes/f.txt; echo deeper > Notes/inner/g.txt")
        try mirror.sync(a, b)
        let presenter = try PresenterProbeProcess(a, ["present", a.documents + "/Notes"])
        #expect(try presenter.next() == "registered")

        try b.shell("mv Notes Renamed")
        try mirror.sync(b, a)
        let heard = try presenter.next(skipping: ["relinquishToWriter", "reacquire"])
        #expect(heard == "didMove \(a.documents)/Renamed", "log of a:\n\(a.log())")
    }

    @Test func aPresenterRegistersOnceUbqdStartsAndAgainAfterARestart() throws {
        let daemon = try DaemonHarness()
        try FileManager.default.createDirectory(atPath: daemon.documents, withIntermediateDirectories: true)
        let file = daemon.documents + "/f.txt"
        FileManager.default.createFile(atPath: file, contents: Data("hello\n".utf8))
        let presenter = try PresenterProbeProcess(daemon, ["present", file])
        #expect(try presenter.next() == "not-registered")  // no ubqd: kept, retried
        try daemon.start()
        try waitUntil("the presenter is listed") { try presenters(daemon).count == 1 }
        daemon.stop()
        try daemon.start()
        try waitUntil("the presenter is listed after the restart") { try presenters(daemon).count == 1 }
        #expect(try daemon.ubq(["coordinate", "--write", file, "--", "true"]).status == 0)
        #expect(try presenter.next(skipping: ["didChange"]) == "relinquishToWriter size=6")
    }

    /// Polls `condition` until it holds (an event ubqd does not announce), failing after 30 s.
    private func waitUntil(_ what: String, _ condition: () throws -> Bool) throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while try !condition() {
            guard ContinuousClock.now < deadline else { throw HarnessError("\(what): not within 30 s") }
            usleep(20_000)
        }
    }

    private func presenters(_ daemon: DaemonHarness) throws -> [[String: Any]] {
        let result = try daemon.ubq(["presenters", "--json"])
        guard result.status == 0, let list = try JSONSerialization.jsonObject(with: result.output) as? [[String: Any]] else {
            throw HarnessError("ubq presenters --json failed (\(result.status)): \(result.errorText)")
        }
        return list
    }
}

/// `ubq coordinate` holds off a diary save, as the issue asks, with no daemon involved.
@Suite struct CoordinateDelaysSaveTests {
    @Test func aDiarySaveWaitsForUbqCoordinateWriteToEnd() throws {
        let harness = try DaemonHarness()
        try harness.diary(["add", "--title", "first"])
        let diary = harness.documents + "/Diary.archive"
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: DaemonHarness.binaries + "/ubq")
        holder.arguments = ["coordinate", "--write", diary, "--", "sh", "-c", "echo held; sleep 2; echo finished"]
        holder.environment = harness.environment
        let output = Pipe()
        holder.standardOutput = output
        try holder.run()
        #expect(output.fileHandleForReading.availableDataUntilNewline() == "held")
        try harness.diary(["add", "--title", "second"])  // waits for the claim
        // The save ran only after the command had finished (the claim outlives it): its last
        // line is already there to read, without waiting.
        var ready = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 0) == 1)
        #expect(output.fileHandleForReading.availableDataUntilNewline() == "finished")
        holder.waitUntilExit()
        #expect(try harness.diaryEntries(["list", "--json"]).map(\.title) == ["first", "second"])
    }
}

/// ubqd reads document content under coordination: it does not index what a writer is
/// still writing, and indexes it once the writer's claim is released.
@Suite struct DaemonCoordinatedReadTests {
    @Test func contentWrittenUnderAClaimIsIndexedOnlyAfterTheClaimEnds() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let file = daemon.documents + "/draft.txt"
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: DaemonHarness.binaries + "/ubq")
        holder.arguments = ["coordinate", "--write", file, "--", "sh", "-c", "echo 'secret words' > \"$0\"; echo held; read line", file]
        holder.environment = daemon.environment
        let input = Pipe(), output = Pipe()
        holder.standardInput = input
        holder.standardOutput = output
        try holder.run()
        #expect(output.fileHandleForReading.availableDataUntilNewline() == "held")
        let query = #"kMDItemTextContent CONTAINS "secret""#
        #expect(try daemon.indexedItems(predicate: query).isEmpty)  // settled, but claimed: not read
        try input.fileHandleForWriting.write(contentsOf: Data("go\n".utf8))
        holder.waitUntilExit()
        let deadline = ContinuousClock.now + .seconds(30)
        while try daemon.indexedItems(predicate: query).isEmpty {  // looked at again after the settle period
            guard ContinuousClock.now < deadline else { throw HarnessError("draft.txt was never indexed; log:\n\(daemon.log())") }
            usleep(20_000)
        }
    }
}
