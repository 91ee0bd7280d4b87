import APIModel
import Foundation
import Indexing
import Logging
import MetadataIndex
import RawPaths
import Testing

@testable import SyncEngine

/// The index follows a long pass: what it is about to upload shows as uploading from the
/// start, and each batch it commits shows as uploaded before the pass ends.
@Suite struct IndexUploadMarksTests {
    /// Three batches, so that one is complete mid-pass: a batch's log lines and base follow
    /// at the next batch's flush. Enough files for the pass to mark them (`marksUploadsFrom`).
    static let capacity = 1024
    static let files = 2 * capacity + 200

    @Test func aPassCutShortLeavesWhatItCommittedUploadedAndTheRestUploading() throws {
        let scratch = Scratch()
        let device = try scratch.devices("a")[0]
        for n in 0..<Self.files { try device.write(String(format: "f%04d.txt", n), "file \(n)\n") }
        let index = try MetadataIndex(path: device.state + "/index.sqlite", root: RawPath(device.root))
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        try Indexer(root: RawPath(device.root), index: index, extraIgnorePatterns: [], logger: logger).reconcileEverything(readingContent: false)
        #expect(try count(index, "NSMetadataUbiquitousItemIsUploadingKey == YES") == 0)

        device.engine.index = index
        let faults = FaultInjection()
        device.engine.faults = faults
        device.batchCapacity = Self.capacity
        faults.crash(afterCheckpoints: Self.files - 20)  // one checkpoint per action, two per batch: the third batch
        let report = device.sync()
        #expect(report.problems.contains { $0.contains("simulated crash") }, "\(report.problems)")

        try waitForQueuedWrites(index)
        let uploaded = try count(index, "NSMetadataUbiquitousItemIsUploadedKey == YES AND kMDItemFSName ENDSWITH '.txt'")
        let uploading = try count(index, "NSMetadataUbiquitousItemIsUploadingKey == YES AND kMDItemFSName ENDSWITH '.txt'")
        #expect((Self.capacity - 96...Self.capacity).contains(uploaded), "the first batch; the second was sealed, not complete")
        #expect(uploaded + uploading == Self.files, "the rest still uploading")

        faults.disarm()
        device.sync()
        try waitForQueuedWrites(index)
        #expect(try count(index, "NSMetadataUbiquitousItemIsUploadedKey == YES AND kMDItemFSName ENDSWITH '.txt'") == Self.files)
        #expect(try count(index, "NSMetadataUbiquitousItemIsUploadingKey == YES") == 0)
    }

    private func count(_ index: MetadataIndex, _ predicate: String) throws -> Int {
        let plan = try QueryPlan(QueryRequest(predicate: predicate, scope: .all, attributes: ["kMDItemFSName"], sync: false))
        return try index.run(plan).items.count
    }

    /// The marks are written after the pass's call returns; the index's writes run in
    /// order, so a write that changes nothing waits for them.
    private func waitForQueuedWrites(_ index: MetadataIndex) throws {
        try index.applySyncState(container: TestDevice.containerID.identifier, SyncedState(uploaded: [], conflicted: [], limitedTo: []))
    }
}
