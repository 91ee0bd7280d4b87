import Foundation
import Glibc
@testable import SyncEngine
import Testing

/// Another device's log that is not the file read last time (deleted and written again,
/// replaced): it is read from its start.
@Suite struct LogRewrittenTests {
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
