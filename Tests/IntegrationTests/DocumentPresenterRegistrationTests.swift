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
