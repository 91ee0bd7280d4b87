import Foundation
import Testing
import Ubiquity

/// A document used from an actor (the main actor here, as an app's) keeps UIDocument's
/// saveless model with other programs, through ubqd: they read what it shows, and it shows
/// what they wrote.
@MainActor
@Suite(.serialized, .timeLimit(.minutes(3))) struct DocumentSavelessTests {
    /// Another reader's coordinated read asks the document to save first
    /// (`savePresentedItemChanges`, through ubqd): it reads the unsaved edit, not the file as
    /// it was. (The reader is a coordinator of this process, as another app's would be, and
    /// waits a minute for the answer rather than the usual 5 s: a test process whose threads
    /// are all busy may take longer to run the save.)
    @Test func anotherReaderReadsTheUnsavedEdit() async throws {
        let (device, url) = try Self.deviceHoldingDoc()
        let document = try await device.openTextDocument(url)
        document.autosaveDelay = nil
        document.text = "unsaved\n"
        document.updateChangeCount(.done)
        let reader = try UbiquityContainer.fileCoordinator(presenterDeadline: .seconds(60), environment: device.environment)
        let read = try await reader.coordinate(readingItemAt: url, byAsyncAccessor: { try String(contentsOf: $0, encoding: .utf8) })
        #expect(read == "unsaved\n")
        #expect(!document.hasUnsavedChanges)
        try await document.close()
    }

    /// A change made elsewhere is loaded by the time `fileChanges()` yields, if the document
    /// has no unsaved changes; otherwise they stay, and the next save is refused.
    @Test func anOpenDocumentLoadsAChangeMadeElsewhereUnlessItHasUnsavedChanges() async throws {
        let (device, url) = try Self.deviceHoldingDoc()
        let document = try await device.openTextDocument(url)
        document.autosaveDelay = nil

        let changed = document.fileChanges()
        try device.shell("echo 'another program' > doc.txt")
        #expect(await DocumentStream.yields(changed))
        #expect(document.text == "another program\n")
        #expect(document.documentState == .normal)

        document.text = "mine\n"
        document.updateChangeCount(.done)
        let changedAgain = document.fileChanges()
        try device.shell("echo 'a third' > doc.txt")
        #expect(await DocumentStream.yields(changedAgain))
        #expect(document.text == "mine\n", "unsaved changes are kept")
        let refused = await #expect(throws: DocumentError.self) { try await document.close() }
        #expect(refused?.code == .changedOnDisk)
        #expect(document.documentState == .inConflict)
        try await document.revert(toContentsOf: url)
        #expect(document.text == "a third\n")
        try await document.close()
    }

    /// Two documents on one file, each reverting by itself to another program's change: each
    /// revert's read asks the other document to save, and it answers at once (nothing to
    /// save), instead of waiting for its own revert, which waits for the first one's answer.
    /// (Their reads wait a minute for answers: waiting at all shows as the 30 s guard.)
    @Test func twoDocumentsOnOneFileBothLoadAChangeMadeElsewhere() async throws {
        let (device, url) = try Self.deviceHoldingDoc()
        let first = try await device.openTextDocument(url, presenterDeadline: .seconds(60))
        let second = try await device.openTextDocument(url, presenterDeadline: .seconds(60), presenters: 2)
        let (firstChanged, secondChanged) = (first.fileChanges(), second.fileChanges())
        try device.shell("echo 'another program' > doc.txt")
        #expect(await DocumentStream.yields(firstChanged))
        #expect(await DocumentStream.yields(secondChanged))
        #expect(first.text == "another program\n" && second.text == "another program\n")
        try await first.close()
        try await second.close()
    }

    private static func deviceHoldingDoc() throws -> (DaemonHarness, URL) {
        let device = try DaemonHarness()
        try device.start()
        try device.shell("echo base > doc.txt")
        return (device, URL(fileURLWithPath: device.documents + "/doc.txt"))
    }
}
