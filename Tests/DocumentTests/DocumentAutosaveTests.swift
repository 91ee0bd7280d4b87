@testable import Coordination
import Diary
import Foundation
import Testing
import TestSupport
@testable import Ubiquity

/// UIDocument's saveless model: a document used from an actor saves edits by itself, and
/// its loads and saves, whoever starts them, run one at a time.
@MainActor
@Suite(.serialized, .timeLimit(.minutes(3))) struct DocumentAutosaveTests {
    @Test func anEditIsSavedByItselfAfterTheAutosaveDelay() async throws {
        let sandbox = try DocumentSandbox()
        try await sandbox.writeDiary([Samples.first])
        let diary = sandbox.diary()
        diary.autosaveDelay = .milliseconds(50)
        try await diary.open()
        diary.add(Samples.second)
        var deadline = StallAwareDeadline(.seconds(30))
        while diary.hasUnsavedChanges && !deadline.hasPassed { try await deadline.sleep() }
        #expect(!diary.hasUnsavedChanges, "not saved within \(deadline)")
        #expect(try DiaryArchive.decode(Array(Data(contentsOf: sandbox.diaryURL))) == [Samples.first, Samples.second])
        #expect(diary.documentState == .normal)
        try await diary.close()
        #expect(diary.owner == nil, "closed, it belongs to no actor: reopened from none, it does nothing by itself")
    }

    /// An edit made while a save waits for its claim is not in the bytes that save writes:
    /// the document still has it unsaved afterwards, and `close()` saves it.
    @Test func anEditMadeWhileASaveIsUnderWayStaysUnsaved() async throws {
        let sandbox = try DocumentSandbox()
        try await sandbox.writeDiary([Samples.first])
        let (diary, probe) = try await openWithTheFileHeld(sandbox)
        diary.add(Samples.second)
        let saving = Task { try await diary.save(to: sandbox.diaryURL, for: .forOverwriting) }
        try await waitUntilBlocked(diary.coordinator, count: 1)
        diary.add(Samples.third)
        try probe.release()
        try await saving.value
        #expect(diary.hasUnsavedChanges, "the third entry was not in that save")
        #expect(try DiaryArchive.decode(Array(Data(contentsOf: sandbox.diaryURL))) == [Samples.first, Samples.second])
        try await diary.close()
        #expect(try DiaryArchive.decode(Array(Data(contentsOf: sandbox.diaryURL))) == [Samples.first, Samples.second, Samples.third])
    }

    /// A second save started while the first waits for its claim (an autosave meeting the
    /// app's own save, or `close()`) waits for the first, instead of expecting the version
    /// the first replaces and being refused as `changedOnDisk`.
    @Test func twoSavesAtOnceRunOneAfterTheOther() async throws {
        let sandbox = try DocumentSandbox()
        try await sandbox.writeDiary([Samples.first])
        let (diary, probe) = try await openWithTheFileHeld(sandbox)
        diary.add(Samples.second)
        let first = Task { try await diary.save(to: sandbox.diaryURL, for: .forOverwriting) }
        try await waitUntilBlocked(diary.coordinator, count: 1)
        diary.add(Samples.third)
        let second = Task { await diary.autosave() }
        var deadline = StallAwareDeadline(.seconds(30))
        while diary.coordinator.blockedCallCount + diary.operations.waitingCount < 2 && !deadline.hasPassed { try await deadline.sleep() }
        try #require(diary.operations.waitingCount == 1, "the second save does not wait for the first")
        try probe.release()
        try await first.value
        #expect(await second.value, "the second save failed: \(diary.documentState)")
        #expect(diary.documentState == .normal)
        #expect(!diary.hasUnsavedChanges)
        #expect(try DiaryArchive.decode(Array(Data(contentsOf: sandbox.diaryURL))) == [Samples.first, Samples.second, Samples.third])
        try await diary.close()
    }

    /// `close()` saves an edit made while its save waited for the claim, before it closes.
    @Test func anEditMadeWhileCloseSavesIsSavedToo() async throws {
        let sandbox = try DocumentSandbox()
        try await sandbox.writeDiary([Samples.first])
        let (diary, probe) = try await openWithTheFileHeld(sandbox)
        diary.add(Samples.second)
        let closing = Task { try await diary.close() }
        try await waitUntilBlocked(diary.coordinator, count: 1)
        diary.add(Samples.third)
        try probe.release()
        try await closing.value
        #expect(diary.documentState == .closed)
        #expect(!diary.hasUnsavedChanges)
        #expect(try DiaryArchive.decode(Array(Data(contentsOf: sandbox.diaryURL))) == [Samples.first, Samples.second, Samples.third])
    }

    /// A revert made by itself (after another program's change) keeps an edit made while it
    /// waited for its claim: it loads nothing, the document is `inConflict`, and its next
    /// save is refused, so that neither version is lost.
    @Test func aRevertMadeByItselfKeepsAnEditMadeWhileItWaited() async throws {
        let sandbox = try DocumentSandbox()
        try await sandbox.writeDiary([Samples.first])
        let (diary, probe) = try await openWithTheFileHeld(sandbox)
        // Another program's change (the claim's holder writing), which the revert is for.
        try Data(DiaryArchive.encode([Samples.first, Samples.second])).write(to: sandbox.diaryURL)
        let reverting = Task { try await diary.reload(nil, discardingEdits: false) }
        try await waitUntilBlocked(diary.coordinator, count: 1)
        diary.add(Samples.third)
        try probe.release()
        try await reverting.value
        #expect(diary.entries == [Samples.first, Samples.third])
        #expect(diary.hasUnsavedChanges)
        #expect(diary.documentState == .inConflict)
        let refused = await #expect(throws: DocumentError.self) { try await diary.close() }
        #expect(refused?.code == .changedOnDisk)
        try await diary.revert(toContentsOf: sandbox.diaryURL)
        #expect(diary.entries == [Samples.first, Samples.second])
        #expect(diary.documentState == .normal)
        try await diary.close()
    }

    /// A save made by itself does not write back a file another program deleted since the
    /// document read it (sync would undo the deletion everywhere): it is refused, and the
    /// edit stays unsaved until the app saves it.
    @Test func anAutosaveDoesNotWriteBackADeletedFile() async throws {
        let sandbox = try DocumentSandbox()
        try await sandbox.writeDiary([Samples.first])
        let diary = sandbox.diary()
        diary.autosaveDelay = nil
        try await diary.open()
        diary.add(Samples.second)
        try FileManager.default.removeItem(at: sandbox.diaryURL)
        #expect(await diary.autosave() == false)
        #expect(!FileManager.default.fileExists(atPath: sandbox.diaryURL.path))
        #expect(diary.documentState == .inConflict)
        #expect(diary.hasUnsavedChanges)
        try await diary.save(to: sandbox.diaryURL, for: .forOverwriting)
        #expect(try DiaryArchive.decode(Array(Data(contentsOf: sandbox.diaryURL))) == [Samples.first, Samples.second])
        #expect(diary.documentState == .normal, "the app's save settled it")
        try await diary.close()
    }

    /// An autosave that fails is told nowhere but in the document's state: `stateChanges()`
    /// yields (UIDocument's state-changed notification), and says so once the document closes.
    @Test(.timeLimit(.minutes(1))) func aFailedAutosaveIsToldAsAStateChange() async throws {
        let sandbox = try DocumentSandbox()
        try await sandbox.writeDiary([Samples.first])
        let diary = sandbox.diary()
        diary.autosaveDelay = .milliseconds(50)
        try await diary.open()
        var changes = diary.stateChanges().makeAsyncIterator()
        try FileManager.default.removeItem(at: sandbox.diaryURL)
        diary.add(Samples.second)
        while !diary.documentState.contains(.inConflict) {
            try #require(await changes.next() != nil, "the stream ended before the autosave failed")
        }
        try await diary.close()  // saves the edit: the app's own save writes the file back
        while await changes.next() != nil {}  // ends: the document closed
        #expect(diary.documentState == .closed)
        #expect(FileManager.default.fileExists(atPath: sandbox.diaryURL.path))
    }

    /// The diary of `sandbox`, open (its autosave off), and another process's write claim on
    /// its file, held until released.
    private func openWithTheFileHeld(_ sandbox: borrowing DocumentSandbox) async throws -> (DiaryDocument, ProbeClaim) {
        let diary = DiaryDocument(fileURL: sandbox.diaryURL, coordinator: try FileCoordinator(lockDirectory: sandbox.locks))
        diary.autosaveDelay = nil
        try await diary.open()
        let probe = try ProbeClaim.hold(locks: sandbox.locks, "write", sandbox.diaryURL)
        try probe.expect("acquired")
        return (diary, probe)
    }

    /// Returns once `count` calls of `coordinator` wait for a claim; throws after 30 s.
    private func waitUntilBlocked(_ coordinator: FileCoordinator, count: Int) async throws {
        var deadline = StallAwareDeadline(.seconds(30))
        while coordinator.blockedCallCount < count && !deadline.hasPassed { try await deadline.sleep() }
        try #require(coordinator.blockedCallCount == count, "\(coordinator.blockedCallCount) calls wait for a claim, not \(count)")
    }
}
