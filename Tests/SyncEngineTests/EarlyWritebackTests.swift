import Glibc
import Testing

@testable import SyncEngine

/// A long pass starts writing its early copies to the disk as soon as the scan made them
/// (`EarlyWriteback`), when its batches will sync them with `syncfs` anyway: many copies,
/// on a filesystem `syncfs` makes durable.
@Suite struct EarlyWritebackTests {
    let scratch = Scratch()
    /// So large that no other dirty data on the machine makes `syncfs` the wrong choice.
    static let footprint: Int64 = 1 << 30

    @Test func manyCopiesOnALocalFilesystemAreWrittenAhead() {
        #expect(EarlyWriteback.start(copies: EarlyWriteback.minimumCopies, footprint: Self.footprint, anchor: scratch.path, faults: nil))
    }

    @Test func fewCopiesAreLeftToTheirBatch() {
        #expect(!EarlyWriteback.start(copies: EarlyWriteback.minimumCopies - 1, footprint: Self.footprint, anchor: scratch.path, faults: nil))
    }

    @Test func copiesOnAFilesystemOfUnknownKindAreLeftToTheirBatches() {
        let faults = FaultInjection()
        faults.fail("statfs", with: EIO)  // the kind cannot be told: each file is fsynced
        #expect(!EarlyWriteback.start(copies: EarlyWriteback.minimumCopies, footprint: Self.footprint, anchor: scratch.path, faults: faults))
    }
}
