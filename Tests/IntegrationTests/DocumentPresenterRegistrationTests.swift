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
