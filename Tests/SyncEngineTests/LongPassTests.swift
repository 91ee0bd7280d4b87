import Foundation
import Synchronization
import Testing

@testable import SyncEngine

/// The engine tells when a pass carries out a long plan (`longPassObserver`), which the
/// daemon's content reader waits for: once as it starts, once as it ends, even when the
/// pass stops early; and not for a short pass.
@Suite struct LongPassTests {
    @Test func aLongPassIsToldAsItStartsAndEndsAShortOneIsNot() throws {
        let scratch = Scratch()
        let device = try scratch.devices("a")[0]
        for n in 0..<SyncPass.longPassFrom { try device.write(String(format: "f%04d.txt", n), "file \(n)\n") }
        let heard = Mutex<[Bool]>([])
        device.engine.longPassObserver = { running in heard.withLock { $0.append(running) } }

        let faults = FaultInjection()
        device.engine.faults = faults
        faults.crash(afterCheckpoints: 100)
        let cut = device.sync()
        #expect(cut.problems.contains { $0.contains("simulated crash") }, "\(cut.problems)")
        #expect(heard.withLock { $0 } == [true, false], "a pass that stops early ends its long plan too")

        faults.disarm()
        #expect(device.sync().problems.isEmpty)
        #expect(heard.withLock { $0 } == [true, false, true, false])

        try device.write("f0000.txt", "changed\n")
        #expect(device.sync().problems.isEmpty)
        #expect(heard.withLock { $0 }.count == 4, "one upload is no long plan")
    }
}
