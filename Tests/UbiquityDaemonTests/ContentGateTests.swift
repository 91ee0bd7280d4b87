import Foundation
import Indexing
import Logging
import MetadataIndex
import RawPaths
import Testing

@testable import UbiquityDaemon

/// The content reader holds back while a sync pass is long (`syncGate`
/// shut): on 2 cores, its reading and the index writes it makes took 4.6 s of CPU during
/// a first sync of 100,000 files, and the sync 8% longer. Once the gate opens it reads
/// everything it was waiting for; and a query that waits for the content lets it go on
/// at once, the gate still shut.
@Suite(.timeLimit(.minutes(10))) struct ContentGateTests {
    let root = NSTemporaryDirectory() + "ubq-content-gate-\(UUID().uuidString)"
    let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
    let gate = Gate(shut: true)

    @Test func nothingIsReadWhileTheGateIsShutAndEverythingOnceItOpens() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (service, index, _) = try await startedAtTheGate()
        let running = Task { try await service.run() }
        try await waitUntil("the reader reaches the gate") { gate.waiting > 0 }
        #expect(try index.pendingContentCount() == 3, "nothing read before the gate")
        gate.open()
        try await running.value  // returns once the content is all read
        #expect(try index.pendingContentCount() == 0)
    }

    @Test func aQueryWaitingForTheContentLetsTheReaderGoOn() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (service, index, pipeline) = try await startedAtTheGate()
        let running = Task { try await service.run() }
        try await waitUntil("the reader reaches the gate") { gate.waiting > 0 }
        // What a content query does (`APIRoutes`); it returns once the content is read,
        // which the reader, scheduled only on idle cores, may be slow to do in CI.
        await pipeline.waitForContent()
        #expect(try index.pendingContentCount() == 0, "read with the gate still shut")
        try await running.value
    }

    /// Three files indexed without their content, and a content service for them (not
    /// started) whose sync gate is shut.
    private func startedAtTheGate() async throws -> (ContentService, MetadataIndex, IndexPipeline) {
        let folder = root + "/iCloud~org~ubiquity~GateTest"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for n in 0..<3 { try "note \(n)\n".write(toFile: folder + "/n\(n).txt", atomically: false, encoding: .utf8) }
        let index = try MetadataIndex(path: root + "/index.sqlite", root: RawPath(root))
        let indexer = try Indexer(root: RawPath(root), index: index, extraIgnorePatterns: [], logger: logger)
        try indexer.reconcileEverything(readingContent: false)
        let pipeline = IndexPipeline(indexer: indexer, index: index, root: RawPath(root), settleMilliseconds: 0, logger: logger)
        await pipeline.startContentPass()  // as the daemon's start-up scan leaves it
        #expect(try index.pendingContentCount() == 3)
        let ready = ReadyLatch()
        ready.open()
        let service = ContentService(
            reader: ContentReaderQueue(reader: try ContentReader(root: RawPath(root), logger: logger)), index: index,
            pipeline: pipeline, ready: ready, syncGate: gate, notifier: SystemdNotifier(environment: [:]), containers: 1, logger: logger)
        return (service, index, pipeline)
    }
}
