import Foundation
import Glibc
import RawPaths
@testable import SyncEngine
import SyncPlanning
import Testing

/// A second machine set up with a copy of a device's state folder runs under that
/// device's id: both would append to one log with the same numbers, one version of each
/// pair dropped as the other's duplicate. The one that finds lines it did not write in its
/// log stops syncing the container, saying why and what to do; nothing it holds is lost.
@Suite struct ClonedDeviceTests {
    static let container = TestDevice.containerID.identifier

    @Test func aDeviceRunningUnderACopiedIdStopsLoudly() throws {
        let scratch = Scratch()
        let (a, b, clone) = try devicesWithAClone(in: scratch)
        #expect(clone.engine.device.id == a.engine.device.id)

        try a.write("shared.txt", "from a")
        a.sync(settled: true)
        try clone.write("only-on-the-clone.txt", "clone")
        let stopped = clone.sync(settled: true)
        try clone.write("later.txt", "later")
        let still = clone.sync(settled: true)

        let hint = "another machine writes it under this device's id"
        #expect(stopped.problems.contains { $0.contains(hint) && $0.contains("sync.sqlite") }, "\(stopped.problems)")
        #expect(still.problems.contains { $0.contains(hint) }, "stays stopped: \(still.problems)")
        let status = try #require(clone.engine.status().first)
        #expect(status.phase == .failed && status.message?.contains(hint) == true, "failed until a restart, not idle: \(status)")
        #expect(still.published == 0)
        let log = try String(contentsOfFile: MirrorLayout(root: a.mirror).log(container: Self.container, device: a.engine.device.id), encoding: .utf8)
        #expect(!log.contains("only-on-the-clone") && !log.contains("later.txt"), "nothing appended after the clone found the log grown")
        #expect(clone.read("only-on-the-clone.txt") == "clone", "the clone's files stay")
        let report = b.sync()
        #expect(b.read("shared.txt") == "from a", "\(report.problems)")
        #expect(a.sync().problems.isEmpty, "the machine whose log it is goes on")
    }

    /// Once stopped, the clone appends nothing through `ubq resolve` either: it would stop
    /// the genuine device too. Found in review.
    @Test func aStoppedDeviceResolvesNothing() throws {
        let scratch = Scratch()
        let (a, _, clone) = try devicesWithAClone(in: scratch)
        try a.write("other.txt", "from a")
        a.sync(settled: true)
        try clone.write("x.txt", "x")
        #expect(clone.sync(settled: true).problems.contains { $0.contains("another machine writes it") })
        let log = MirrorLayout(root: a.mirror).log(container: Self.container, device: a.engine.device.id)
        let before = try String(contentsOfFile: log, encoding: .utf8)

        #expect(throws: SyncError.self) {
            try clone.engine.resolve(container: TestDevice.containerID, path: "Documents/shared.txt", keep: .current)
        }
        #expect(try String(contentsOfFile: log, encoding: .utf8) == before)
        try a.write("later.txt", "later")
        #expect(a.sync(settled: true).problems.isEmpty, "the genuine device goes on")
    }

    /// Its own log missing when this device read the logs (a network mount's hiccup), and
    /// there again when it appends: no clone, nothing stopped. Found in review.
    @Test func anOwnLogMissedOnceIsNoClone() throws {
        let scratch = Scratch()
        let (a, _) = try scratch.pair()
        try a.write("f.txt", "v0")
        a.sync(settled: true)
        try a.restart()
        let log = MirrorLayout(root: a.mirror).log(container: Self.container, device: a.engine.device.id)
        let sync = ContainerSync(
            id: Self.container, folder: RawPath(a.root + "/" + TestDevice.containerID.folderName), layout: MirrorLayout(root: a.mirror),
            device: a.engine.device.id)
        #expect(rename(log, log + ".away") == 0)
        sync.readLogs()
        #expect(rename(log + ".away", log) == 0)

        #expect(throws: Never.self) {
            var writer = try sync.logWriter()
            let record = VersionRecord(id: writer.nextID, path: "Documents/g", parents: [], state: .folder(), time: 1)
            try sync.appendOwn([record], with: &writer)
        }
        #expect(sync.stopped == nil)
    }

    /// Devices a and b with `shared.txt` synced, and a clone of a; a and the clone have
    /// each run a pass since (their writers know the log as it is).
    private func devicesWithAClone(in scratch: Scratch) throws -> (TestDevice, TestDevice, TestDevice) {
        let (a, b) = try scratch.pair()
        try a.write("shared.txt", "v1")
        a.sync()
        b.sync()
        let clone = try cloneOf(a, in: scratch)
        a.sync()
        clone.sync()
        return (a, b, clone)
    }

    /// A device (`c`) made from a copy of `device`'s state and files, as a cloned disk is.
    private func cloneOf(_ device: TestDevice, in scratch: Scratch) throws -> TestDevice {
        try FileManager.default.copyItem(atPath: scratch.path + "/" + device.name, toPath: scratch.path + "/c")
        return try TestDevice("c", in: scratch.path, mirror: device.mirror)
    }
}
