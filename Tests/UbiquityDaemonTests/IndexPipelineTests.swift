import APIModel
import FileEvents
import Foundation
import Indexing
import Logging
import MetadataIndex
import RawPaths
import Synchronization
import Testing

@testable import UbiquityDaemon

/// The sync service hears of local changes before the index takes them, so that its pass
/// need not wait for the indexing; the attributes the pass hands back must still land on
/// the rows the indexing makes, new ones included.
@Suite struct IndexPipelineTests {
    static let container = "iCloud.org.ubiquity.PipelineTest"

    @Test func changesAreAnnouncedBeforeIndexingAndAttributesHandedBackLandAfter() async throws {
        let root = NSTemporaryDirectory() + "ubq-pipeline-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = root + "/iCloud~org~ubiquity~PipelineTest"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let index = try MetadataIndex(path: root + "/index.sqlite", root: RawPath(root))
        let indexer = try Indexer(root: RawPath(root), index: index, extraIgnorePatterns: [], logger: logger)
        try indexer.reconcileEverything()
        let pipeline = IndexPipeline(indexer: indexer, index: index, root: RawPath(root), settleMilliseconds: 0, logger: logger)

        let updates = InOrderPublisher()
        let handoff = pipeline.syncStateHandoff(through: updates)
        let indexedWhenAnnounced = Mutex<[Int]>([])
        await pipeline.observeChanges { changes in
            // What a pass does with them, at once: here, before the step is indexed.
            indexedWhenAnnounced.withLock { $0.append((try? Self.names(index, "kMDItemFSName == 'new.txt'").count) ?? -1) }
            let paths = changes.compactMap { change -> RawPath? in
                guard case .rescan(let path) = change else { return nil }
                return ContainerLayout(root: RawPath(root)).locate(path)?.relativePath
            }
            handoff(SyncedState(uploaded: paths, conflicted: [], limitedTo: paths), Self.container)
        }
        try "new\n".write(toFile: folder + "/new.txt", atomically: false, encoding: .utf8)
        await pipeline.record(.rescan(RawPath("iCloud~org~ubiquity~PipelineTest/new.txt")))
        await updates.drain()

        #expect(indexedWhenAnnounced.withLock { $0 } == [0], "announced once, before the index held the new row")
        #expect(try Self.names(index, "kMDItemFSName == 'new.txt'") == ["new.txt"])
        #expect(try Self.names(index, "NSMetadataUbiquitousItemIsUploadedKey == YES") == ["new.txt"])
    }

    private static func names(_ index: MetadataIndex, _ predicate: String) throws -> [String] {
        let plan = try QueryPlan(QueryRequest(predicate: predicate, scope: .all, attributes: ["kMDItemFSName"], sync: false))
        return try index.run(plan).items.compactMap { item in
            guard case .string(let name) = item.attributes["kMDItemFSName"] else { return nil }
            return name
        }
    }
}
