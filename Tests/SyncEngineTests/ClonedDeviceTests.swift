import Foundation
import Glibc
@testable import SyncEngine
import Testing

/// A second machine set up with a copy of a device's state folder runs under that
/// device's id: both would append to one log with the same numbers, one version of each
/// pair dropped as the other's duplicate. The one that finds lines it did not write in its
/// log stops syncing the container, saying why and what to do; nothing it holds is lost.
@Suite struct ClonedDeviceTests {
    static let container = TestDevice.containerID.identifier

    @Test func aDeviceRunningUnderACopiedIdStopsLoudly() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("shared.txt", "v1")
        a.sync()
        b.sync()
        let clone = try cloneOf(a, in: scratch)
        #expect(clone.engine.device.id == a.engine.device.id)
        a.sync()
        clone.sync()  // both have read the log as it is

        try a.write("shared.txt", "from a")
        a.sync(settled: true)
        try clone.write("only-on-the-clone.txt", "clone")
        let stopped = clone.sync(settled: true)
        try clone.write("later.txt", "later")
        let still = clone.sync(settled: true)

        let hint = "another machine writes it under this device's id"
        #expect(stopped.problems.contains { $0.contains(hint) && $0.contains("sync.sqlite") }, "\(stopped.problems)")
        #expect(still.problems.contains { $0.contains(hint) }, "stays stopped: \(still.problems)")
        #expect(still.published == 0)
        let log = try String(contentsOfFile: MirrorLayout(root: a.mirror).log(container: Self.container, device: a.engine.device.id), encoding: .utf8)
        #expect(!log.contains("only-on-the-clone") && !log.contains("later.txt"), "nothing appended after the clone found the log grown")
        #expect(clone.read("only-on-the-clone.txt") == "clone", "the clone's files stay")
        let report = b.sync()
        #expect(b.read("shared.txt") == "from a", "\(report.problems)")
        #expect(a.sync().problems.isEmpty, "the machine whose log it is goes on")
    }

    /// A device (`c`) made from a copy of `device`'s state and files, as a cloned disk is.
    private func cloneOf(_ device: TestDevice, in scratch: Scratch) throws -> TestDevice {
        try FileManager.default.copyItem(atPath: scratch.path + "/" + device.name, toPath: scratch.path + "/c")
        return try TestDevice("c", in: scratch.path, mirror: device.mirror)
    }
}
