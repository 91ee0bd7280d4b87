import Foundation
import Glibc
@testable import SyncEngine
import Synchronization
import Testing

/// Files of the mirror replaced behind the daemon's back (by hand, a restore, a replicator):
/// a log written anew is read from its start, and a FIFO in a log's or an object's place
/// hangs nothing.
@Suite struct MirrorFilesReplacedTests {
    static let container = TestDevice.containerID.identifier

    /// A device's log deleted by hand while the devices run, and then written again: the
    /// other device, which had read further into the old file than the new one reaches,
    /// reads the new one from its start.
    @Test func aLogWrittenAnewIsReadFromItsStart() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        for n in 0..<5 { try a.write("f\(n).txt", "file \(n)") }
        a.sync()
        b.sync()
        unlink(MirrorLayout(root: a.mirror).log(container: Self.container, device: a.engine.device.id))
        try a.write("new.txt", "made after the log was deleted")
        a.sync()
        let report = b.sync()

        #expect(b.read("new.txt") == "made after the log was deleted", "\(report.problems)")
        #expect(report.problems.isEmpty, "\(report.problems)")
    }
}

extension MirrorFilesReplacedTests {
    /// Another device's log replaced by a FIFO (by hand, or a replicator): reading it must
    /// not wait for a writer that never comes. The pass ends.
    @Test func aFifoInPlaceOfAnotherDevicesLogDoesNotHangThePass() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try b.write("doc.txt", "doc")
        b.sync()
        let log = MirrorLayout(root: b.mirror).log(container: Self.container, device: b.engine.device.id)
        unlink(log)
        #expect(mkfifo(log, 0o644) == 0)
        let ended = DispatchSemaphore(value: 0)
        let device = UncheckedDevice(a)
        Thread { device.value.sync(); ended.signal() }.start()

        #expect(ended.wait(timeout: .now() + 20) == .success, "the pass waited on the FIFO")
    }
}

extension MirrorFilesReplacedTests {
    /// A store object replaced by a FIFO: the download reads it as empty, refuses it as
    /// damaged, and the pass ends.
    @Test func aFifoInPlaceOfAStoreObjectDoesNotHangTheDownload() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("doc.txt", "doc")
        a.sync()
        let object = try #require(try FileManager.default.subpathsOfDirectory(atPath: a.mirror + "/store/sha256").first { $0.count > 60 })
        let path = a.mirror + "/store/sha256/" + object
        chmod(path, 0o644)
        unlink(path)
        #expect(mkfifo(path, 0o444) == 0)
        let ended = DispatchSemaphore(value: 0)
        let device = UncheckedDevice(b)
        let report = Mutex<PassReport?>(nil)
        Thread { report.withLock { $0 = device.value.sync() }; ended.signal() }.start()

        #expect(ended.wait(timeout: .now() + 20) == .success, "the download waited on the FIFO")
        #expect(report.withLock { $0 }?.problems.isEmpty == false)
    }
}

/// A device handed to a thread of the test's own, which the test waits for with a timeout.
private struct UncheckedDevice: @unchecked Sendable {
    let value: TestDevice
    init(_ value: TestDevice) { self.value = value }
}
