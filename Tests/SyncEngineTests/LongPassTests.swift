import Foundation
import RawPaths
import Synchronization
import Testing

@testable import SyncEngine

/// The engine tells when a pass turns out long (`longPassObserver`), which the daemon's
/// content reader waits for: once as it starts, once as it ends, even when the pass stops
/// early; and not for a short pass. A scan that reads many files makes a pass long even
/// when its plan is short.
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
        #expect(device.sync(changed: [RawPath("Documents/f0000.txt")]).published == 1)
        #expect(heard.withLock { $0 }.count == 4, "one upload is no long plan")
    }

    @Test func aScanThatReadsManyFilesIsLongWithNothingToCarryOut() throws {
        let scratch = Scratch()
        let device = try scratch.devices("a")[0]
        device.engine.racyWindowNanoseconds = 0  // every signature kept vouches: a scan reads only what changed
        let names = (0..<SyncPass.longPassFrom).map { String(format: "f%04d.txt", $0) }
        for name in names { try device.write(name, "\(name)\n") }
        #expect(device.sync().problems.isEmpty)
        let heard = Mutex<[Bool]>([])
        device.engine.longPassObserver = { running in heard.withLock { $0.append(running) } }

        let untouched = device.sync()
        #expect(untouched.hashed == 0 && untouched.problems.isEmpty)
        #expect(heard.withLock { $0 }.isEmpty, "a scan of the whole container that reads no file is no long pass")

        let earlier = Date(timeIntervalSinceNow: -3600)
        for name in names { try FileManager.default.setAttributes([.modificationDate: earlier], ofItemAtPath: device.documents + "/" + name) }
        let touched = device.sync()
        #expect(touched.hashed == names.count && touched.published == 0, "\(touched)")
        #expect(heard.withLock { $0 } == [true, false])
    }
}
