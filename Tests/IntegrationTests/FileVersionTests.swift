import Foundation
import Testing
import Ubiquity

/// The library's `FileVersion` (NSFileVersion's model) against two real daemons sharing a
/// mirror: an app lists a conflict's versions, reads them, and resolves it.
@Suite("FileVersion between real daemons", .serialized)
final class FileVersionTests {
    let shared = SharedMirror()

    /// Two devices holding a conflict on `doc.txt`: "from a" against "from b", after "base".
    private func conflict() throws -> (DaemonHarness, DaemonHarness) {
        let (a, b) = try holdingBase()
        try editAtOnce(a, b)
        return (a, b)
    }

    /// Two devices holding `doc.txt` ("base"), synced.
    private func holdingBase() throws -> (DaemonHarness, DaemonHarness) {
        let (a, b) = try shared.twoDevices()
        try a.shell("echo base > doc.txt")
        try shared.sync(a, b)
        return (a, b)
    }

    /// Both devices change `doc.txt` before either syncs, then sync: a conflict both know of.
    private func editAtOnce(_ a: DaemonHarness, _ b: DaemonHarness) throws {
        try shared.changeConcurrently(a, "echo 'from a' > doc.txt", b, "echo 'from b' > doc.txt")
    }

    private func doc(_ device: DaemonHarness) -> URL { URL(fileURLWithPath: device.documents + "/doc.txt") }

    @Test func anAppSeesTheConflictAndReadsEachVersion() async throws {
        let (a, _) = try conflict()
        let current = try #require(try await FileVersion.currentVersionOfItem(at: doc(a), environment: a.environment))
        let conflicts = try await FileVersion.unresolvedConflictVersionsOfItem(at: doc(a), environment: a.environment)
        let others = try await FileVersion.otherVersionsOfItem(at: doc(a), environment: a.environment)

        #expect(current.isCurrent && !current.isConflict)
        #expect(current.url == doc(a))
        let loser = try #require(conflicts.first)
        #expect(conflicts.count == 1)
        #expect(loser.hasLocalContents)
        let texts = try [current, loser].map { try String(contentsOf: #require($0.url), encoding: .utf8) }
        #expect(Set(texts) == ["from a\n", "from b\n"])
        #expect(try String(contentsOf: #require(others.last?.url), encoding: .utf8) == "base\n", "the replaced version too")
        #expect(others.contains(loser) && !others.contains(current))

        let listed = try JSONSerialization.jsonObject(with: a.ubq(["versions", doc(a).path, "--json"]).output) as? [[String: Any]]
        let ids = listed?.compactMap { $0["id"] as? String } ?? []
        #expect(ids.count == 3 && Set(ids) == Set([current, loser, others.last!].map(\.persistentIdentifier)), "\(ids)")
        // NSFileVersion's date is the file's, not the upload's: what the disk says here.
        let onDisk = try FileManager.default.attributesOfItem(atPath: doc(a).path)[.modificationDate] as? Date
        #expect(abs((current.modificationDate ?? .distantPast).timeIntervalSince(onDisk ?? .distantFuture)) < 0.000_001, "\(String(describing: current.modificationDate)) \(String(describing: onDisk))")
        #expect(try await FileVersion.version(itemAt: doc(a), forPersistentIdentifier: loser.persistentIdentifier, environment: a.environment) == loser)
    }

    @Test func markingTheConflictResolvedKeepsTheCurrentVersionEverywhere() async throws {
        let (a, b) = try conflict()
        let current = try String(contentsOf: doc(a), encoding: .utf8)
        let loser = try #require(try await FileVersion.unresolvedConflictVersionsOfItem(at: doc(a), environment: a.environment).first)

        try await loser.markResolved()
        try await loser.markResolved()  // twice: as NSFileVersion's isResolved, nothing more happens
        try shared.sync(a, b, a)

        for device in [a, b] {
            #expect(try await FileVersion.unresolvedConflictVersionsOfItem(at: doc(device), environment: device.environment).isEmpty)
            #expect(try String(contentsOf: doc(device), encoding: .utf8) == current)
        }
        #expect(try a.ubq(["conflicts"]).text == "no conflicts\n")
    }

    @Test func replacingTheItemWithTheConflictVersionMakesItCurrentEverywhere() async throws {
        let (a, b) = try conflict()
        let loser = try #require(try await FileVersion.unresolvedConflictVersionsOfItem(at: doc(b), environment: b.environment).first)
        let content = try String(contentsOf: #require(loser.url), encoding: .utf8)

        #expect(try await loser.replaceItem() == doc(b))
        try await loser.markResolved()
        try shared.sync(b, a)

        for device in [a, b] {
            #expect(try String(contentsOf: doc(device), encoding: .utf8) == content)
            #expect(try await FileVersion.unresolvedConflictVersionsOfItem(at: doc(device), environment: device.environment).isEmpty)
        }
    }

    /// The same resolution from the command line: `ubq resolve --keep current --only VERSION`.
    @Test func ubqResolvesOneConflictVersion() throws {
        let (a, b) = try conflict()
        let listed = try JSONSerialization.jsonObject(with: a.ubq(["conflicts", "--json"]).output) as? [[String: Any]]
        let loser = try #require((listed?.first?["others"] as? [[String: Any]])?.first?["id"] as? String)

        let refused = try a.ubq(["resolve", doc(a).path, "--keep", "all", "--only", loser])
        #expect(refused.status != 0 && refused.errorText.contains("--keep current"), "\(refused.errorText)")
        let resolved = try a.ubq(["resolve", doc(a).path, "--keep", "current", "--only", loser])
        #expect(resolved.status == 0, "\(resolved.errorText)")
        try shared.sync(a, b)

        #expect(try b.ubq(["conflicts"]).text == "no conflicts\n")
    }

    @Test func removingTheOtherVersionsLeavesOnlyTheCurrentOneEverywhere() async throws {
        let (a, b) = try conflict()
        let current = try String(contentsOf: doc(a), encoding: .utf8)

        try await FileVersion.removeOtherVersionsOfItem(at: doc(a), environment: a.environment)
        try shared.sync(a, b)

        for device in [a, b] {
            #expect(try await FileVersion.otherVersionsOfItem(at: doc(device), environment: device.environment).isEmpty, "\(device.documents)")
            #expect(try String(contentsOf: doc(device), encoding: .utf8) == current)
        }
        let listed = try b.ubq(["versions", doc(b).path]).text
        #expect(listed.split(separator: "\n").count == 1, "\(listed)")
    }

    /// As UIDocument's: a document whose file has unresolved conflict versions is `inConflict`
    /// from `open()` until they are resolved.
    @Test func aDocumentInConflictSaysSoUntilResolved() async throws {
        let (a, _) = try conflict()
        let document = try await openDocument(on: a)
        #expect(document.documentState == .inConflict)
        for version in try await FileVersion.unresolvedConflictVersionsOfItem(at: doc(a), environment: a.environment) {
            try await version.markResolved()
        }
        #expect(await document.updateConflictState().isEmpty)
        #expect(document.documentState == .normal)
        try await document.close()
    }

    /// NSFilePresenter's `presentedItemDidGain(_:)` and `presentedItemDidResolveConflict(_:)`:
    /// the presenter of the file on one device hears of the conflict version that the other
    /// device's change made, then of its resolution there.
    @Test func aPresenterHearsOfTheConflictVersionThenOfItsResolutionElsewhere() async throws {
        let (a, b, probe, loser) = try await presenterHearingAConflict()
        let resolved = try b.ubq(["resolve", doc(b).path, "--keep", "current"])
        #expect(resolved.status == 0, "\(resolved.errorText)")
        try shared.sync(b, a)
        #expect(try probe.next(skipping: Self.syncNotices) == "didResolveConflict \(loser.persistentIdentifier) conflict=false")
    }

    /// Removing the other versions on one device: the presenter on the other hears the
    /// conflict version is lost (`presentedItemDidLose`), not resolved, and it is gone.
    @Test func aPresenterHearsThatTheConflictVersionWasRemovedElsewhere() async throws {
        let (a, b, probe, loser) = try await presenterHearingAConflict()
        try await FileVersion.removeOtherVersionsOfItem(at: doc(b), environment: b.environment)
        try shared.sync(b, a)
        #expect(try probe.next(skipping: Self.syncNotices) == "didLose \(loser.persistentIdentifier)")
        #expect(try await FileVersion.otherVersionsOfItem(at: doc(a), environment: a.environment).isEmpty)
    }

    /// What a presenter hears of the edits and downloads that make and settle a conflict.
    private static let syncNotices = ["didChange", "relinquish", "reacquire", "savePresentedItemChanges", "accommodate"]

    /// Two devices, and a presenter of `doc.txt` on the first that has heard of the conflict
    /// version both devices' edits made (`didGain`), the version it names.
    private func presenterHearingAConflict() async throws -> (DaemonHarness, DaemonHarness, PresenterProbeProcess, FileVersion) {
        let (a, b) = try holdingBase()
        let probe = try PresenterProbeProcess(a, ["present", doc(a).path])
        #expect(try probe.next() == "registered")
        try editAtOnce(a, b)
        let loser = try #require(try await FileVersion.unresolvedConflictVersionsOfItem(at: doc(a), environment: a.environment).first)
        #expect(try probe.next(skipping: Self.syncNotices) == "didGain \(loser.persistentIdentifier) conflict=true item=\(doc(a).path)")
        return (a, b, probe, loser)
    }

    /// An open document hears of the conflict (`conflictChanges()`), and so knows when to ask
    /// again: it is then `inConflict`, and `normal` once another device resolved it.
    @Test func anOpenDocumentHearsWhenItsFileGainsAConflictAndWhenItIsResolved() async throws {
        let (a, b) = try holdingBase()
        let document = try await openDocument(on: a)
        #expect(document.documentState == .normal)

        let gained = document.conflictChanges()
        try editAtOnce(a, b)
        #expect(await DocumentStream.yields(gained), "told of the conflict version")
        #expect(await document.updateConflictState().count == 1)
        #expect(document.documentState == .inConflict)

        let resolved = document.conflictChanges()
        #expect(try b.ubq(["resolve", doc(b).path, "--keep", "current"]).status == 0)
        try shared.sync(b, a)
        #expect(await DocumentStream.yields(resolved), "told of the resolution")
        #expect(await document.updateConflictState().isEmpty)
        #expect(document.documentState == .normal)

        let open = document.conflictChanges()
        try await document.close()
        #expect(await DocumentStream.next(of: open) == .ended, "closing ends the streams")
    }

    /// The conflict versions are the file's: a closed document saved to another file is not
    /// `inConflict` for them.
    @Test func aDocumentSavedToAnotherFileLeavesTheConflictBehind() async throws {
        let (a, _) = try conflict()
        let document = try await openDocument(on: a)
        #expect(document.documentState == .inConflict)
        try await document.close()
        try await document.save(to: URL(fileURLWithPath: a.documents + "/copy.txt"), for: .forCreating)
        #expect(document.documentState == .normal)
        try await document.close()
        // Saved back to the first file, it asks ubqd again: the conflict versions are there.
        try await document.save(to: doc(a), for: .forOverwriting)
        #expect(document.documentState == .inConflict)
        try await document.close()
    }

    /// UIDocument reverts by itself when another device changed its file; a `Document` used
    /// from no actor (this test's) tells the app when to (`fileChanges()`). One used from an
    /// actor reverts by itself: `DocumentSavelessTests`.
    @Test func anOpenDocumentHearsWhenAnotherDeviceChangedItsFile() async throws {
        let (a, b) = try holdingBase()
        let document = try await openDocument(on: a)
        #expect(document.text == "base\n")

        let changes = document.fileChanges()
        try b.shell("echo 'from b' > doc.txt")
        try shared.sync(b, a)
        #expect(await DocumentStream.yields(changes), "told of the download")
        try await document.revert(toContentsOf: doc(a))
        #expect(document.text == "from b\n")
        try await document.close()
    }

    /// Its own saves are not news: the stream hears the change another program made after
    /// one, and nothing of the save itself.
    @Test func anOpenDocumentIsNotToldOfItsOwnSaves() async throws {
        let device = shared.add(try DaemonHarness())
        try device.start()
        try device.shell("echo base > doc.txt")
        let document = try await openDocument(on: device)
        let all = document.fileChanges()
        let heard = NoticeCount()
        let counting = Task {
            for await _ in all { heard.add() }
        }

        document.text = "saved by the document\n"
        document.updateChangeCount(.done)
        try await document.save(to: doc(device), for: .forOverwriting)
        try await device.waitUntilIndexed(doc(device), size: document.text.utf8.count)  // the watcher has seen the save
        let afterTheSave = document.fileChanges()
        try device.shell("echo 'another program' > doc.txt")
        #expect(await DocumentStream.yields(afterTheSave))
        // The notice reaches the streams one after the other: `all` may get it a moment
        // later, and a close before would end it first.
        try await heard.waitUntil(atLeast: 1)
        try await document.close()
        await counting.value
        #expect(heard.count == 1, "told of the other program's change only: \(heard.count)")
    }

    /// `doc.txt` on `device`, opened as a document that asks that device's ubqd.
    private func openDocument(on device: DaemonHarness) async throws -> TextDocument {
        try await device.openTextDocument(doc(device))
    }

    @Test func withSyncOffAnItemHasNoVersions() async throws {
        let device = shared.add(try DaemonHarness())
        try device.start()  // no mirror: sync is off
        try device.shell("echo hello > doc.txt")
        #expect(try await FileVersion.currentVersionOfItem(at: doc(device), environment: device.environment) == nil)
        #expect(try await FileVersion.otherVersionsOfItem(at: doc(device), environment: device.environment).isEmpty)
        // The sync commands say so, and exit 78 (EX_CONFIG), as `ubq sync --help` says.
        for arguments in [["sync"], ["versions", doc(device).path], ["deleted"]] {
            let result = try CommandResult.run(DaemonHarness.binaries + "/ubq", arguments, environment: device.environment, directory: device.documents)
            #expect(result.status == 78 && result.errorText.contains("no mirror is configured"), "ubq \(arguments): \(result.status) \(result.errorText)")
        }
    }

    /// With the mirror not mounted, `ubq restore` says so and exits 75 (try again later), as
    /// `ubq sync` does; the file is left as it is.
    @Test func aRestoreWithTheMirrorAwayExits75() throws {
        let device = shared.add(try DaemonHarness())
        try device.start(extraEnvironment: ["UBQ_MIRROR": shared.path])
        try device.shell("echo first > doc.txt")
        try shared.sync(device)
        try device.shell("echo second > doc.txt")
        try shared.sync(device)
        let listed = try JSONSerialization.jsonObject(with: device.ubq(["versions", doc(device).path, "--json"]).output) as? [[String: Any]]
        let first = try #require(listed?.last?["id"] as? String)
        try FileManager.default.moveItem(atPath: shared.path, toPath: shared.path + "-away")
        defer { try? FileManager.default.removeItem(atPath: shared.path); try? FileManager.default.moveItem(atPath: shared.path + "-away", toPath: shared.path) }
        try FileManager.default.createDirectory(atPath: shared.path, withIntermediateDirectories: true)  // an empty mount point

        let result = try device.ubq(["restore", doc(device).path, "--version", first])
        #expect(result.status == 75 && result.errorText.contains("is it mounted?"), "\(result.status) \(result.errorText)")
        #expect(try String(contentsOf: doc(device), encoding: .utf8) == "second\n")
    }

    /// The root a symbolic link (~/Ubiquity -> elsewhere): `ubq versions doc.txt` typed in
    /// the Documents folder (whose current folder is its physical path), and a URL whose
    /// links were resolved, name the item.
    @Test func anItemIsFoundThroughASymlinkedRoot() async throws {
        let device = shared.add(try DaemonHarness())
        let real = device.base + "/real-root"
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: device.root, withDestinationPath: real)
        try device.start(extraEnvironment: ["UBQ_MIRROR": shared.path])
        try device.shell("echo hello > doc.txt")
        try shared.sync(device)

        let typed = try CommandResult.run(
            DaemonHarness.binaries + "/ubq", ["versions", "doc.txt"], environment: device.environment, directory: device.documents)
        #expect(typed.status == 0, "\(typed.errorText)")
        let physical = doc(device).resolvingSymlinksInPath()
        #expect(physical.path.hasPrefix(real))
        #expect(try await FileVersion.versionsOfItem(at: physical, environment: device.environment).count == 1)
    }

    @Test func anItemNeverSyncedHasNoVersions() async throws {
        let (a, _) = try conflict()
        let never = URL(fileURLWithPath: a.documents + "/never.txt")
        #expect(try await FileVersion.versionsOfItem(at: never, environment: a.environment).isEmpty)
        #expect(try await FileVersion.currentVersionOfItem(at: never, environment: a.environment) == nil)
        await #expect(throws: (any Error).self) {
            try await FileVersion.versionsOfItem(at: URL(fileURLWithPath: "/etc/passwd"), environment: a.environment)
        }
    }
}
