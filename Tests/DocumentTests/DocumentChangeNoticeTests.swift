import Diary
import Foundation
import Testing
@testable import Ubiquity

/// Which change notices an open document passes on to `fileChanges()`: ubqd tells what its
/// watcher saw, later than it happened, so a notice may find the file as the document
/// already knows it. ubqd's notice is played here by calling the presenter directly; a
/// document opened from no actor tells its streams at once, so the count is exact.
/// `DocumentPresenterRegistrationTests` has ubqd send it.
@Suite(.timeLimit(.minutes(1))) struct DocumentChangeNoticeTests {
    /// The watcher saw the file's creation after the document opened it.
    @Test func aNoticeOfTheVersionTheDocumentOpenedIsNotNews() async throws {
        let sandbox = try DocumentSandbox()
        let (diary, changes) = try await Self.openedDiary(in: sandbox)
        diary.presenter.presentedItemDidChange()
        try await diary.close()
        #expect(await count(changes) == 0)
    }

    /// The notice of a save another program made is news once; a second notice finding
    /// the same version on disk (the first arrived after that save was made) is not.
    @Test func aChangeIsNewsOnce() async throws {
        let sandbox = try DocumentSandbox()
        let (diary, changes) = try await Self.openedDiary(in: sandbox)
        try Data("another program's save".utf8).write(to: sandbox.diaryURL, options: .atomic)
        diary.presenter.presentedItemDidChange()
        var told = changes.makeAsyncIterator()
        #expect(await told.next() != nil)
        diary.presenter.presentedItemDidChange()
        try await diary.close()
        #expect(await told.next() == nil, "the stream ended with nothing more told")
    }

    /// A notice for a file that is gone is passed on: the document cannot tell it is old.
    @Test func aNoticeForAFileThatIsGoneIsPassedOn() async throws {
        let sandbox = try DocumentSandbox()
        let (diary, changes) = try await Self.openedDiary(in: sandbox)
        try FileManager.default.removeItem(at: sandbox.diaryURL)
        diary.presenter.presentedItemDidChange()
        try await diary.close()
        #expect(await count(changes) == 1)
    }

    /// A diary written in `sandbox`, opened (from no actor), and its `fileChanges()`.
    static func openedDiary(in sandbox: borrowing DocumentSandbox) async throws -> (DiaryDocument, AsyncStream<Void>) {
        try await sandbox.writeDiary([Samples.first])
        let diary = sandbox.diary()
        try await diary.open()
        return (diary, diary.fileChanges())
    }

    /// How many times `stream` yields before it ends.
    private func count(_ stream: AsyncStream<Void>) async -> Int {
        var yields = 0
        for await _ in stream { yields += 1 }
        return yields
    }
}
