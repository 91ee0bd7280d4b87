import Foundation
import Glibc
import Testing

@testable import SyncEngine

/// `FaultInjection` is used from several threads at once: a batch's objects thread asks
/// which calls fail while an action interleaved on the pass's thread changes them.
@Suite struct FaultInjectionTests {
    @Test func callsMadeToFailCanBeChangedWhileAnotherThreadAsks() async {
        let faults = FaultInjection()
        let rounds = 100_000
        // Unguarded, a dictionary read while another thread wrote it crashed this test
        // (SIGSEGV in the dictionary's lookup) within its first rounds.
        async let asked: Int = Task.detached {
            (0..<rounds).reduce(0) { count, _ in count + (faults.failure(of: "statfs") == nil ? 0 : 1) }
        }.value
        async let changed: Void = Task.detached {
            for round in 0..<rounds {
                faults.fail("log write \(round % 64)", with: EIO)
                faults.stopFailing("log write \((round + 32) % 64)")
            }
        }.value
        _ = await changed
        #expect(await asked == 0, "statfs was never made to fail")
        #expect(faults.failure(of: "log write 31") == EIO, "the last round's call still fails")
    }

    @Test func anInterleavedActionMayArmOtherFaults() throws {
        let faults = FaultInjection()
        faults.interleave(at: "one") { faults.fail("rename", with: EXDEV) }
        try faults.checkpoint("one")
        #expect(faults.failure(of: "rename") == EXDEV)
        faults.crash(afterCheckpoints: 1)
        try faults.checkpoint("two")
        #expect(throws: FaultInjection.SimulatedCrash.self) { try faults.checkpoint("three") }
        try faults.checkpoint("four")  // disarmed by the crash
    }
}
