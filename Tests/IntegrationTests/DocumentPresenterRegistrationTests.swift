import Foundation
import Testing
import Ubiquity

/// Where an open document's presenter is registered, and that it leaves from there.
@Suite("A document's presenter registration", .serialized)
final class DocumentPresenterRegistrationTests {
    let shared = SharedMirror()

    /// The environment may name another ubqd by the time the document closes: its
    /// presenter is still removed from the ubqd it registered with.
    @Test func closingRemovesThePresenterWhereItWasRegistered() async throws {
        let (a, b) = (shared.add(try DaemonHarness()), shared.add(try DaemonHarness()))
        for device in [a, b] {
            try device.start()
            try device.shell("echo base > doc.txt")
        }
        let document = try await a.openTextDocument(URL(fileURLWithPath: a.documents + "/doc.txt"))
        document.environment = b.environment
        try await document.close()
        try await waitUntilNoPresenter(on: a)
    }

    /// The first presenter's `add` opens the session, and registers it: the opening, which
    /// registers again the presenters a reconnecting process holds, leaves it out.
    /// (Registered twice, a presenter once lost the inode ubqd knew its file by, session 48.)
    @Test func aDocumentOpenedBeforeTheSessionIsRegisteredOnce() async throws {
        let device = shared.add(try DaemonHarness())
        try device.start(extraEnvironment: ["UBQ_LOG_LEVEL": "debug"])
        try device.shell("echo base > doc.txt")
        let url = URL(fileURLWithPath: device.documents + "/doc.txt")
        let document = try await device.openTextDocument(url)
        // A round trip through the presenter's session: a second registration, sent as the
        // session opened, has reached ubqd by its end.
        #expect(try device.ubq(["coordinate", "--write", url.path, "--", "true"]).status == 0)
        let registrations = device.log().split(separator: "\n").filter { $0.hasSuffix(" presents \(url.path)") }
        #expect(registrations.count == 1, "\(registrations)")
        try await document.close()
    }

    /// ubqd tells presenters what its watcher saw, and the watcher may see a file's creation
    /// only after a document opened it (here it waits a second for changes to settle): the
    /// document is not told of the version it read, only of the change another program made
    /// next. The rename after it is a barrier: its notice comes after every earlier one.
    /// (Under load, a document heard of that creation: CI, session 61.)
    @Test func aDocumentIsNotToldOfTheVersionItOpened() async throws {
        let device = shared.add(try DaemonHarness())
        try device.writeConfig("settle_ms = 1000\n")
        try device.start()
        try device.shell("echo base > doc.txt")
        let url = URL(fileURLWithPath: device.documents + "/doc.txt")
        let document = try await device.openTextDocument(url)
        let changes = document.fileChanges()
        let heard = NoticeCount()
        let counting = Task {
            for await _ in changes { heard.add() }
        }
        try await device.waitUntilIndexed(url, size: 5)  // the creation, seen once the document had it
        try device.shell("echo 'another program' > doc.txt")
        try await device.waitUntilIndexed(url, size: 16)
        let moves = document.moves()
        try device.shell("mv doc.txt moved.txt")
        #expect(await DocumentStream.yields(moves), "told of the move")
        try await document.close()
        await counting.value
        #expect(heard.count == 1, "told of the other program's change only: \(heard.count)")
    }

    /// Returns once `device`'s ubqd lists no presenter (the removal runs in a task of this
    /// process); throws after 30 s.
    private func waitUntilNoPresenter(on device: DaemonHarness) async throws {
        var listed: [[String: Any]]?
        try await poll(until: "\(device.documents): ubqd lists no presenter; still listed: \(listed ?? [])") {
            listed = try JSONSerialization.jsonObject(with: device.ubq(["presenters", "--json"]).output) as? [[String: Any]]
            return listed?.isEmpty == true
        }
    }
}
