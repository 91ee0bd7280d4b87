import Foundation
import Glibc
import SyncPlanning
import Testing

@testable import SyncEngine

/// A batch's objects are stored in the background while the pass fills the next batch
/// (`ChangeBatch`): when completing a batch fails, the batch sealed after it, numbered on
/// from it, is dropped too, the pass goes on, and the next pass records what was dropped.
@Suite struct BatchPipelineTests {
    /// Three batches: the first completes at the second's flush.
    static let capacity = 256
    static let files = 2 * capacity + 100

    @Test func aBatchThatFailsToCompleteTakesTheSealedOneWithItAndNothingIsLost() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        for n in 0..<Self.files { try a.write(String(format: "f%05d.txt", n), "file \(n)\n") }
        let faults = FaultInjection()
        faults.interleave(at: "batch: objects stored, log not appended") {
            faults.fail("log write", with: EIO)  // once: the next action's checkpoint lifts it
            faults.interleave(at: "between actions") { faults.stopFailing("log write") }
        }
        a.engine.faults = faults
        a.batchCapacity = Self.capacity

        let first = a.sync()
        #expect(first.problems.count == 1 && first.problems[0].contains("Input/output error"), "\(first.problems)")
        let afterFirst = try records(a)
        #expect(isNumberedFromOne(afterFirst), "numbered on from what the log held")

        #expect(a.sync().problems.isEmpty)
        let all = try records(a)
        #expect(all.count { $0.path.hasSuffix(".txt") } == Self.files, "each file recorded once")
        #expect(Set(all.map(\.path)).count == all.count)
        #expect(isNumberedFromOne(all))
        #expect(afterFirst.count == all.count - 2 * Self.capacity, "the first pass recorded the third batch only")
        #expect(b.sync().problems.isEmpty)
        #expect(b.tree() == a.tree())
    }

    private func isNumberedFromOne(_ records: [VersionRecord]) -> Bool {
        records.enumerated().allSatisfy { $0.element.id.sequence == UInt64($0.offset + 1) }
    }

    /// Every record in the logs of the mirror `device` syncs through.
    private func records(_ device: TestDevice) throws -> [VersionRecord] {
        let folder = MirrorLayout(root: device.mirror).logFolder(container: TestDevice.containerID.identifier)
        var all: [VersionRecord] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasSuffix(".ndjson") {
            var reader = LogReader(path: folder + "/" + name, device: String(name.dropLast(".ndjson".count)))
            let (records, problems) = try reader.readNew()
            #expect(problems.isEmpty, "\(problems)")
            all += records
        }
        return all.sorted { $0.id.sequence < $1.id.sequence }
    }
}
