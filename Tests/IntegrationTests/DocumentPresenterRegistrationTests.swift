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
        try waitUntilNoPresenter(on: a)
    }

    /// Returns once `device`'s ubqd lists no presenter; throws after 30 s.
    private func waitUntilNoPresenter(on device: DaemonHarness) throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            let listed = try JSONSerialization.jsonObject(with: device.ubq(["presenters", "--json"]).output) as? [[String: Any]]
            if listed?.isEmpty == true { return }
            guard ContinuousClock.now < deadline else { throw HarnessError("\(device.documents): presenters still listed after 30 s: \(listed ?? [])") }
            usleep(20_000)
        }
    }
}
