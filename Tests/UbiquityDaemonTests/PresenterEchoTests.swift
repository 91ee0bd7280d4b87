import Foundation
import Logging
import Testing

@testable import UbiquityDaemon

/// The watcher's batches reach the hub a moment after the writes they saw, so a batch may
/// find its file already written again. The hub tells the file as it is then, once: the
/// later write's own batch is an echo of what was told. The hub is fed what the watcher
/// would report; the file is real.
@Suite struct PresenterEchoTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-echo-\(UUID().uuidString.prefix(8))").path
    var file: String { root + "/f.txt" }

    init() throws {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    @Test func aChangeAlreadyToldIsNotToldAgainByItsOwnBatch() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try write("first\n")
        let hub = PresenterHub(markerPath: root + "/marker", logger: Logger(label: "test"))
        let session = await hub.connect(pid: 4242, program: "test")
        try await hub.add(session: session.id, presenter: "P", path: Array(file.utf8))

        try write("second, written before the first write's batch arrived\n")
        await hub.observe([.changed(Array(file.utf8))])  // the first write's batch
        #expect(lines(session) == 1, "told of the file as it is now")
        await hub.observe([.changed(Array(file.utf8))])  // the second write's
        #expect(lines(session) == 0, "nothing new since")

        try write("third\n")
        await hub.observe([.changed(Array(file.utf8))])
        #expect(lines(session) == 1, "a later write is news")
    }

    private func write(_ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
    }

    /// How many lines the session was sent since the last look.
    private func lines(_ session: PresenterHub.Session) -> Int {
        guard case .items(let lines) = session.outbox.take() else { return 0 }
        return lines.count
    }
}
