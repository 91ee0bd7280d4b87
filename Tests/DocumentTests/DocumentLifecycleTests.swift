import Diary
import Foundation
import KeyedArchive
import Testing
@testable import Ubiquity

/// open / save / close / revert and the `documentState` each leaves, as UIDocument.
@Suite struct DocumentLifecycleTests {
    @Test func newDocumentIsClosedAndOpeningAMissingFileSaysNotFound() async throws {
        let sandbox = try DocumentSandbox()
        let diary = sandbox.diary()
        #expect(diary.documentState == .closed)
        let error = await #expect(throws: DocumentError.self) { try await diary.open() }
        #expect(error?.code == .fileNotFound)
        #expect(error?.message.contains(sandbox.diaryURL.path) == true)
        #expect(diary.documentState == .closed)
    }

    @Test func saveForCreatingWritesTheDiaryAndLeavesItOpen() async throws {
        let sandbox = try DocumentSandbox()
        let diary = sandbox.diary()
        diary.add(Samples.first)
        #expect(diary.hasUnsavedChanges)
        try await diary.save(to: sandbox.diaryURL, for: .forCreating)
        #expect(diary.documentState == .normal)
        #expect(!diary.hasUnsavedChanges)
        let onDisk = try DiaryArchive.decode(Array(Data(contentsOf: sandbox.diaryURL)))
        #expect(onDisk == [Samples.first])
        try await diary.close()
        #expect(diary.documentState == .closed)
    }

    @Test func saveForCreatingOverAnExistingFileFailsAndKeepsIt() async throws {
        let sandbox = try DocumentSandbox()
        let before = try await sandbox.writeDiary([Samples.first])
        let diary = sandbox.diary()
        diary.add(Samples.second)
        let error = await #expect(throws: DocumentError.self) { try await diary.save(to: sandbox.diaryURL, for: .forCreating) }
        #expect(error?.code == .fileExists)
        #expect(diary.documentState.contains(.savingError))
        #expect(try Data(contentsOf: sandbox.diaryURL) == before)
    }

    @Test func openLoadsEntriesAndCloseSavesUnsavedChanges() async throws {
        let sandbox = try DocumentSandbox()
        try await sandbox.writeDiary([Samples.first, Samples.second])
        let diary = sandbox.diary()
        try await diary.open()
        #expect(diary.documentState == .normal)
        #expect(diary.entries == [Samples.first, Samples.second])
        let again = await #expect(throws: DocumentError.self) { try await diary.open() }
        #expect(again?.code == .invalidState)
        #expect(diary.remove(id: Samples.first.id) == Samples.first)
        try await diary.close()
        #expect(diary.documentState == .closed)
        let reopened = sandbox.diary()
        try await reopened.open()
        #expect(reopened.entries == [Samples.second])
    }

    @Test func revertDiscardsUnsavedEdits() async throws {
        let sandbox = try DocumentSandbox()
        try await sandbox.writeDiary([Samples.first])
        let diary = sandbox.diary()
        try await diary.open()
        diary.add(Samples.third)
        try await diary.revert(toContentsOf: sandbox.diaryURL)
        #expect(diary.entries == [Samples.first])
        #expect(!diary.hasUnsavedChanges)
        #expect(diary.documentState == .normal)
    }

    @Test func overwritingAFileChangedByAnotherSaveIsAConflictUntilReverted() async throws {
        let sandbox = try DocumentSandbox()
        try await sandbox.writeDiary([Samples.first])
        let mine = sandbox.diary()
        let theirs = sandbox.diary()
        try await mine.open()
        try await theirs.open()
        theirs.add(Samples.second)
        try await theirs.save(to: sandbox.diaryURL, for: .forOverwriting)
        let written = try Data(contentsOf: sandbox.diaryURL)

        mine.add(Samples.third)
        let error = await #expect(throws: DocumentError.self) { try await mine.save(to: sandbox.diaryURL, for: .forOverwriting) }
        #expect(error?.code == .changedOnDisk)
        #expect(mine.documentState == .inConflict)
        #expect(try Data(contentsOf: sandbox.diaryURL) == written)

        try await mine.revert(toContentsOf: sandbox.diaryURL)
        #expect(mine.documentState == .normal)
        #expect(mine.entries == [Samples.first, Samples.second])
        mine.add(Samples.third)
        try await mine.save(to: sandbox.diaryURL, for: .forOverwriting)
        #expect(try DiaryArchive.decode(Array(Data(contentsOf: sandbox.diaryURL))).map(\.id) == [Samples.first, Samples.second, Samples.third].map(\.id))
    }

    @Test func aDamagedFileDoesNotOpenAndSaysWhatItIs() async throws {
        let sandbox = try DocumentSandbox()
        try Data("not an archive".utf8).write(to: sandbox.diaryURL)
        let diary = sandbox.diary()
        let error = await #expect(throws: DocumentError.self) { try await diary.open() }
        #expect(error?.code == .contentsInvalid)
        #expect(error?.message.contains("ubq archive decode") == true)
        #expect(diary.documentState == .closed)
    }

    @Test func theBaseClassWithoutOverridesFailsWithAnError() async throws {
        let sandbox = try DocumentSandbox()
        let document = Document(fileURL: sandbox.diaryURL, coordinator: sandbox.coordinator)
        let error = await #expect(throws: DocumentError.self) { try await document.save(to: sandbox.diaryURL, for: .forCreating) }
        #expect(error?.code == .contentsInvalid)
        #expect(document.documentState == [.closed, .savingError])
        #expect(!FileManager.default.fileExists(atPath: sandbox.diaryURL.path))
    }

    @Test func saveToAnotherURLMovesTheDocumentThere() async throws {
        let sandbox = try DocumentSandbox()
        try await sandbox.writeDiary([Samples.first])
        let diary = sandbox.diary()
        try await diary.open()
        let copy = sandbox.documents.appendingPathComponent("Copy.archive")
        try await diary.save(to: copy, for: .forCreating)
        #expect(diary.fileURL == copy)
        #expect(try Data(contentsOf: copy) == Data(contentsOf: sandbox.diaryURL))
    }
}
