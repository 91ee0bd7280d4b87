import Coordination
import Crypto
import Foundation
import RawPaths
@testable import SyncEngine
import SyncPlanning
import Testing

/// A run of file downloads goes in together, under one claim (`Executor.install(_:)`), as
/// a run of uploads is staged (`Executor.stage(_:)`): what happens to one file of the run
/// must not happen to the others.
@Suite struct FileRunTests {
    /// Six new files in one folder: one run of downloads, planned in this order.
    static let names = (1...6).map { "file\($0).txt" }

    static func content(_ name: String) -> String { "\(name), from a" }

    @Test func aRunOfNewFilesIsFetchedBeforeAnyGoesIn() throws {
        let scratch = Scratch()
        let (a, b) = try Self.published(in: scratch)
        let faults = FaultInjection()
        var seen: [String]?
        faults.interleave(at: Executor.runFetchedCheckpoint) { seen = try? FileManager.default.contentsOfDirectory(atPath: b.documents) }
        b.engine.faults = faults
        b.sync()
        let names = try #require(seen, "the files were not fetched as one run")
        #expect(names.count == Self.names.count && names.allSatisfy { DurableFile.isStagingName(Array($0.utf8)) }, "\(names)")
        #expect(b.tree() == a.tree())
    }

    @Test func aSaveDuringAGroupedDownloadStaysAndTheOtherFilesGoIn() throws {
        let scratch = Scratch()
        let (a, b) = try Self.published(in: scratch)
        let faults = FaultInjection()
        // At the third file's turn, with two files of the run in place and three to come.
        Self.run(atCheckpoint: 3, of: faults) { try? b.saveAsEditorsDo("file3.txt", "saved on b meanwhile") }
        b.engine.faults = faults
        let report = b.sync()
        #expect(report.applied == 5 && report.skipped == 1, "\(report)")
        #expect(b.read("file3.txt") == "saved on b meanwhile", "the download must not replace the save")
        for name in Self.names where name != "file3.txt" { #expect(b.read(name) == Self.content(name), "\(name)") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: b.documents).sorted() == Self.names, "no staging file left")
        SaveDuringDownloadTests.syncUntilQuiet(a, b)
        #expect(a.tree() == b.tree())
        #expect(try SaveDuringDownloadTests.reachable("saved on b meanwhile", on: a))
        #expect(try SaveDuringDownloadTests.reachable(Self.content("file3.txt"), on: a))
    }

    @Test func aDamagedObjectInTheMiddleOfARunKeepsOnlyItsFileOut() throws {
        let scratch = Scratch()
        let (a, b) = try Self.published(in: scratch)
        try Self.damage(Self.content("file3.txt"), in: a.mirror)
        let report = b.sync()
        #expect(b.read("file3.txt") == nil, "a damaged object must not reach the disk")
        #expect(report.problems.count == 1 && report.problems.allSatisfy { $0.contains("file3.txt") }, "\(report.problems)")
        for name in Self.names where name != "file3.txt" { #expect(b.read(name) == Self.content(name), "\(name)") }
    }

    /// An app holding one file of a run (a claim the run cannot take) keeps only that file
    /// waiting: after the run's claim times out, each file takes its own. Were each file to
    /// start a run of its own instead, every run holding the file would wait for it.
    @Test func aFileAnAppHoldsKeepsOnlyItselfWaiting() throws {
        let scratch = Scratch()
        let (a, b) = try Self.published(in: scratch)
        let locks = URL(fileURLWithPath: scratch.path + "/locks")
        let claims = ClaimRecorder()
        try b.coordinate(with: FileCoordinator(lockDirectory: locks, timeout: .milliseconds(100), relay: claims))
        let app = try FileCoordinator(lockDirectory: locks)
        let report = try app.coordinate(readingItemAt: URL(fileURLWithPath: b.documents + "/file3.txt")) { _ in b.sync() }
        #expect(b.read("file3.txt") == nil)
        #expect(report.problems.count == 1 && report.problems.allSatisfy { $0.contains("file3.txt") }, "\(report.problems)")
        for name in Self.names where name != "file3.txt" { #expect(b.read(name) == Self.content(name), "\(name)") }
        #expect(claims.count(naming: "/file3.txt") == 2, "the run's claim, then the file's own")
        b.sync()
        #expect(b.tree() == a.tree(), "the next pass brings it")
    }

    /// The same for a run of uploads (`Executor.stage(_:)`): an app writing one file keeps
    /// only that file from being published.
    @Test func aFileAnAppWritesKeepsOnlyItselfFromUploading() throws {
        let scratch = Scratch()
        let (a, b) = try SaveDuringDownloadTests.syncedPair(scratch, holding: [:])
        for name in Self.names { try a.write(name, Self.content(name)) }
        let locks = URL(fileURLWithPath: scratch.path + "/locks")
        let claims = ClaimRecorder()
        try a.coordinate(with: FileCoordinator(lockDirectory: locks, timeout: .milliseconds(100), relay: claims))
        let app = try FileCoordinator(lockDirectory: locks)
        let report = try app.coordinate(writingItemAt: URL(fileURLWithPath: a.documents + "/file3.txt")) { _ in a.sync() }
        #expect(report.published == 5, "\(report)")
        #expect(claims.count(naming: "/file3.txt") == 2, "the run's claim, then the file's own")
        a.sync()
        b.sync()
        #expect(b.tree() == a.tree(), "the next pass publishes it")
    }

    /// A run fsyncs its copies by path, opening each again for reading: a file whose mode
    /// denies its owner that (refused to a daemon not run as root) is installed alone.
    @Test(arguments: [(0o644, true), (0o400, true), (0o200, false), (0o000, false), (0o044, false)])
    func aRunTakesOnlyFilesItsOwnerMayRead(mode: Int, takes: Bool) {
        let state = EntryState.file(sha256: String(repeating: "ab", count: 32), size: 1, mode: UInt32(mode))
        let version = VersionRecord(id: VersionID(device: "a", sequence: 1), path: "Documents/f.txt", parents: [], state: state, time: 0)
        #expect((Download(version, at: RawPath(version.path), expected: nil, in: RawPath("/c")) != nil) == takes)
    }

    // MARK: - Helpers

    /// Devices a and b, synced, after a published the six files: b's next pass downloads them as one run.
    static func published(in scratch: Scratch) throws -> (TestDevice, TestDevice) {
        let (a, b) = try SaveDuringDownloadTests.syncedPair(scratch, holding: [:])
        for name in names { try a.write(name, content(name)) }
        a.sync()
        return (a, b)
    }

    /// Runs `action` at the `count`-th file a pass puts in place (`Executor.stagedCheckpoint`).
    static func run(atCheckpoint count: Int, of faults: FaultInjection, _ action: @escaping () -> Void) {
        guard count > 1 else { return faults.interleave(at: Executor.stagedCheckpoint, action) }
        faults.interleave(at: Executor.stagedCheckpoint) { [weak faults] in
            if let faults { run(atCheckpoint: count - 1, of: faults, action) }
        }
    }

    /// Overwrites the mirror's object holding `text`.
    static func damage(_ text: String, in mirror: String) throws {
        let hash = SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
        let store = mirror + "/store/sha256/"
        let object = try #require(try FileManager.default.subpathsOfDirectory(atPath: store).first { $0.hasSuffix(hash) })
        chmod(store + object, 0o644)
        try Data("tampered".utf8).write(to: URL(fileURLWithPath: store + object))
    }
}

/// A relay that tells no presenter, only counts the claims announced to it.
final class ClaimRecorder: PresenterRelay, @unchecked Sendable {
    private let lock = NSLock()
    private var announced: [AnnouncedAccess] = []

    /// How many claims named an item whose path ends with `suffix`.
    func count(naming suffix: String) -> Int {
        lock.withLock { announced.filter { $0.items.contains { String(decoding: $0.path, as: UTF8.self).hasSuffix(suffix) } }.count }
    }

    func accessWillBegin(_ access: AnnouncedAccess) async -> AnnouncedAccess.Ticket? { accessWillBeginBlocking(access) }

    func accessWillBeginBlocking(_ access: AnnouncedAccess) -> AnnouncedAccess.Ticket? {
        lock.withLock { announced.append(access) }
        return nil
    }

    func accessDidEnd(_ ticket: AnnouncedAccess.Ticket, _ outcome: AnnouncedAccess.Outcome) async {}
    func accessDidEndBlocking(_ ticket: AnnouncedAccess.Ticket, _ outcome: AnnouncedAccess.Outcome) {}
}
