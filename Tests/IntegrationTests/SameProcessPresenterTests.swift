import Foundation
import Synchronization
import Testing
import Ubiquity

/// As NSFileCoordinator(filePresenter:): an access is kept from the one presenter it is made
/// for, and every other presenter hears of it, in the accessing process too. Real ubqd,
/// presenters in this test process.
@Suite("Presenters of the accessing process", .serialized)
final class SameProcessPresenterTests {
    let shared = SharedMirror()

    /// A running daemon with `doc.txt` indexed: the watcher's sight of its creation is not
    /// told to a presenter registered after.
    private func deviceWithDoc() throws -> (DaemonHarness, URL) {
        let device = shared.add(try DaemonHarness())
        try device.start()
        try device.shell("echo base > doc.txt")
        let url = URL(fileURLWithPath: device.documents + "/doc.txt")
        #expect(try device.indexedItems().keys.contains(url.path))
        return (device, url)
    }

    /// A second view of the same file (a list, a preview) hears of the document's save; the
    /// document itself does not (`FileVersionTests.anOpenDocumentIsNotToldOfItsOwnSaves`).
    @Test func aDocumentsSaveReachesTheOtherPresenterOfItsFileInTheSameProcess() async throws {
        let (device, url) = try deviceWithDoc()
        let document = try await device.openTextDocument(url)
        let preview = RecordingPresenter(url)
        #expect(await FileCoordinator.addFilePresenter(preview, environment: device.environment))

        document.text = "saved by the document\n"
        document.updateChangeCount(.done)
        try await document.save(to: url, for: .forOverwriting)
        try await preview.waitFor("didChange")
        #expect(preview.heard == ["relinquishToWriter", "reacquire", "didChange"])
        await FileCoordinator.removeFilePresenter(preview)
        try await document.close()
    }

    /// Two presenters of one file in one process: a coordinator made for the first leaves
    /// out only the first.
    @Test func aCoordinatorMadeForAPresenterLeavesOutThatPresenterOnly() async throws {
        let (device, url) = try deviceWithDoc()
        let first = RecordingPresenter(url)
        let second = RecordingPresenter(url)
        for presenter in [first, second] {
            #expect(await FileCoordinator.addFilePresenter(presenter, environment: device.environment))
        }
        try await write("by the first\n", to: url, madeFor: first, on: device)
        try await second.waitFor("didChange")
        // Told in the same round as `second`, had it been told: the next write, made for
        // `second`, is the first that `first` hears of.
        try await write("by the second\n", to: url, madeFor: second, on: device)
        try await first.waitFor("didChange")
        #expect(first.heard == ["relinquishToWriter", "reacquire", "didChange"])
        #expect(second.heard == ["relinquishToWriter", "reacquire", "didChange"])
        for presenter in [first, second] { await FileCoordinator.removeFilePresenter(presenter) }
    }

    /// The store presents its file and merges under coordinated writes made for itself: it
    /// does not hear of them (each would make it merge again, without end), and another
    /// presenter of the file in the process hears of each once.
    @Test func aKeyValueStoreDoesNotHearItsOwnMerges() async throws {
        let (device, _) = try deviceWithDoc()
        let store = try await UbiquitousKeyValueStore.open(environment: device.environment)
        _ = await store.changes()  // presents the file
        try await device.waitUntilPresented(store.fileURL)
        let other = RecordingPresenter(store.fileURL)
        #expect(await FileCoordinator.addFilePresenter(other, environment: device.environment))

        for round in 1...3 {
            try store.set("value \(round)", forKey: "key")
            try await store.synchronize()
            try await other.waitFor("didChange", times: round)
        }
        #expect(other.heard.filter { $0 == "didChange" }.count == 3, "one merge each: \(other.heard)")
        await store.stopListening()
        await FileCoordinator.removeFilePresenter(other)
    }

    private func write(_ text: String, to url: URL, madeFor presenter: RecordingPresenter, on device: DaemonHarness) async throws {
        let coordinator = try UbiquityContainer.fileCoordinator(filePresenter: presenter, environment: device.environment)
        try await coordinator.coordinate(writingItemAt: url, byAsyncAccessor: { url in
            try Data(text.utf8).write(to: url)
        })
    }
}

/// A presenter that writes down what it hears.
final class RecordingPresenter: FilePresenter {
    let presentedItemURL: URL?
    let presentedItemOperationQueue: OperationQueue = {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        return queue
    }()
    private let log = Mutex<[String]>([])

    init(_ url: URL) { presentedItemURL = url }

    var heard: [String] { log.withLock { $0 } }

    func relinquishPresentedItem(toWriter writer: @escaping @Sendable ((@Sendable () -> Void)?) -> Void) {
        note("relinquishToWriter")
        writer { [self] in note("reacquire") }
    }

    func presentedItemDidChange() { note("didChange") }

    private func note(_ line: String) { log.withLock { $0.append(line) } }

    /// Returns once `line` was heard `times` times; throws after 30 s.
    func waitFor(_ line: String, times: Int = 1) async throws {
        try await poll(until: "\(line) heard \(times) times; heard \(heard)") {
            heard.filter { $0 == line }.count >= times
        }
    }
}
