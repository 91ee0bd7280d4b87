import Diary
import Foundation
import Testing
@testable import Ubiquity

/// An open document follows its file when its presenter is told the file moved, as
/// UIDocument does in `presentedItemDidMove(to:)`. ubqd's notice is played here by calling
/// the presenter directly, after a real rename; `DocumentMoveTests` (integration) has ubqd
/// send it.
@Suite(.timeLimit(.minutes(1))) struct DocumentMoveFollowingTests {
    @Test func anOpenDocumentSavesWhereItsFileWasMoved() async throws {
        let sandbox = try DocumentSandbox()
        try await sandbox.writeDiary([Samples.first])
        let diary = sandbox.diary()
        try await diary.open()
        diary.replaceEntries([Samples.first, Samples.second])
        diary.updateChangeCount(.done)

        let moved = sandbox.documents.appendingPathComponent("Renamed.diary")
        let moves = diary.moves()
        try FileManager.default.moveItem(at: sandbox.diaryURL, to: moved)
        diary.presenter.presentedItemDidMove(to: moved)
        var told = moves.makeAsyncIterator()
        #expect(await told.next() != nil)
        #expect(diary.fileURL == moved)

        try await diary.close()  // saves the edit, for overwriting: the same file, not refused
        #expect(try sandbox.names() == ["Renamed.diary"])
        let reopened = sandbox.diary(at: moved)
        try await reopened.open()
        #expect(reopened.entries.map(\.id) == [Samples.first.id, Samples.second.id])
        #expect(diary.fileURL == moved, "closed, it stays where the file went")
    }

    @Test func aClosedDocumentDoesNotFollow() async throws {
        let sandbox = try DocumentSandbox()
        try await sandbox.writeDiary([Samples.first])
        let diary = sandbox.diary()
        try await diary.open()
        try await diary.close()
        diary.presenter.presentedItemDidMove(to: sandbox.documents.appendingPathComponent("Elsewhere.diary"))
        #expect(diary.fileURL == sandbox.diaryURL)
    }

    /// A revert names the file itself: it replaces where a move had taken the document.
    @Test func aRevertAfterAMoveGoesToTheFileItNames() async throws {
        let sandbox = try DocumentSandbox()
        try await sandbox.writeDiary([Samples.first])
        let other = sandbox.documents.appendingPathComponent("Other.diary")
        try await sandbox.writeDiary([Samples.second], at: other)
        let diary = sandbox.diary()
        try await diary.open()
        let moved = sandbox.documents.appendingPathComponent("Renamed.diary")
        try FileManager.default.moveItem(at: sandbox.diaryURL, to: moved)
        diary.presenter.presentedItemDidMove(to: moved)

        try await diary.revert(toContentsOf: other)
        #expect(diary.fileURL == other)
        #expect(diary.entries.map(\.id) == [Samples.second.id])
        try await diary.close()
        #expect(diary.fileURL == other)
    }
}
