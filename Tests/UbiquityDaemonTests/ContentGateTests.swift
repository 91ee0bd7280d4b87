import Foundation
import Indexing
import Logging
import MetadataIndex
import RawPaths
import Testing

@testable import UbiquityDaemon

/// The content reader holds back while a sync pass carries out a long plan (`syncGate`
/// shut): on 2 cores, its reading and the index writes it makes took 4.6 s of CPU during
/// a first sync of 100,000 files, and the sync 8% longer. Once the gate opens it reads
/// everything it was waiting for.
@Suite(.timeLimit(.minutes(10))) struct ContentGateTests {
    @Test func nothingIsReadWhileTheGateIsShutAndEverythingOnceItOpens() async throws {
        let root = NSTemporaryDirectory() + "ubq-content-gate-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = root + "/iCloud~org~ubiquity~GateTest"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for n in 0..<3 { try "note \(n)\n".write(toFile: folder + "/n\(n).txt", atomically: false, encoding: .utf8) }
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let index = try MetadataIndex(path: root + "/index.sqlite", root: RawPath(root))
        let indexer = try Indexer(root: RawPath(root), index: index, extraIgnorePatterns: [], logger: logger)
        try indexer.reconcileEverything(readingContent: false)
        #expect(try index.pendingContentCount() == 3)

        let ready = ReadyLatch()
        ready.open()
        let gate = Gate(shut: true)
        let service = ContentService(
            reader: ContentReaderQueue(reader: try ContentReader(root: RawPath(root), logger: logger)), index: index,
            pipeline: IndexPipeline(indexer: indexer, index: index, root: RawPath(root), settleMilliseconds: 0, logger: logger),
            ready: ready, syncGate: gate, notifier: SystemdNotifier(environment: [:]), containers: 1, logger: logger)
        let running = Task { try await service.run() }

        let deadline = ContinuousClock.now + .seconds(60)
        while gate.waiting == 0 {
            try #require(ContinuousClock.now < deadline, "the reader never reached the gate")
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(try index.pendingContentCount() == 3, "nothing read before the gate")
        gate.open()
        try await running.value  // returns once the content is all read
        #expect(try index.pendingContentCount() == 0)
    }
}
