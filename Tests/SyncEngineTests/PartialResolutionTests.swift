import Foundation
import SyncPlanning
import Testing

@testable import SyncEngine

/// Resolving some of an item's conflict versions, not all (NSFileVersion's `isResolved`,
/// set on one version): the others stay unresolved, on every device, and the current
/// version stays current.
@Suite("Resolving one conflict version of several")
struct PartialResolutionTests {
    static let path = "Documents/doc.txt"

    @Test func theOtherConflictVersionStaysUnresolvedEverywhere() throws {
        let scratch = Scratch()
        let devices = try Self.conflictOfThree(scratch)
        let (a, b, c) = (devices[0], devices[1], devices[2])
        let conflict = try #require(a.engine.conflicts().first)
        #expect(conflict.others.count == 2)
        let (resolved, left) = (conflict.others[0], conflict.others[1])
        let current = try #require(a.read("doc.txt"))
        let inode = try Self.inode(a)

        try a.engine.resolve(container: TestDevice.containerID, path: Self.path, keep: .resolving([try #require(VersionID(resolved.id))]))
        for device in [a, b, c, a] { device.sync() }

        for device in [a, b, c] {
            let others = device.engine.conflicts().first?.others.map(\.id)
            #expect(others == [left.id], "\(device.name): \(String(describing: others))")
            #expect(device.read("doc.txt") == current, "\(device.name)")
        }
        #expect(try Self.inode(a) == inode, "the file was left alone")
        let versions = try a.engine.versions(container: TestDevice.containerID, path: Self.path)
        #expect(versions.count { $0.current } == 1)
        #expect(versions.first { $0.current }?.id != conflict.current.id, "the resolution is a version of its own")
    }

    @Test func aVersionThePathDoesNotHaveIsRefused() throws {
        let scratch = Scratch()
        let (a, _) = try scratch.conflictedPair()
        let unknown = try #require(VersionID("0123456789abcdef:1"))
        #expect(throws: SyncError.self) {
            try a.engine.resolve(container: TestDevice.containerID, path: Self.path, keep: .resolving([unknown]))
        }
        #expect(a.engine.conflicts().count == 1)
    }

    /// As NSFileVersion's `isResolved = true` on a resolved version: nothing happens.
    @Test func resolvingAVersionThatIsNoConflictChangesNothing() throws {
        let scratch = Scratch()
        let (a, _) = try scratch.conflictedPair()
        let conflict = try #require(a.engine.conflicts().first)
        let before = try a.engine.versions(container: TestDevice.containerID, path: Self.path)

        try a.engine.resolve(container: TestDevice.containerID, path: Self.path, keep: .resolving([try #require(VersionID(conflict.current.id))]))
        a.sync()

        #expect(try a.engine.versions(container: TestDevice.containerID, path: Self.path) == before)
        #expect(a.engine.conflicts() == [conflict])
    }

    /// The resolution is dated after the conflict versions it leaves, so that it stays
    /// current where their writers' clocks ran ahead of this device's.
    @Test func theCurrentVersionStaysCurrentOverVersionsDatedAhead() throws {
        let scratch = Scratch()
        let devices = try scratch.devices("a", "b", "c")
        let (a, b, c) = (devices[0], devices[1], devices[2])
        try a.write("doc.txt", "base")
        for device in devices { device.sync() }
        try a.write("doc.txt", "from a")
        try b.write("doc.txt", "from b")
        try c.write("doc.txt", "from c")
        for device in devices { device.sync() }
        // b's and c's clocks ran ahead: c's by more, so c's version wins.
        try Self.dateAhead(b, byMilliseconds: 500_000_000)
        try Self.dateAhead(c, byMilliseconds: 900_000_000)
        a.sync()
        let conflict = try #require(a.engine.conflicts().first)
        #expect(a.read("doc.txt") == "from c")
        let fromA = try #require(conflict.others.first { $0.device == a.engine.device.id })

        try a.engine.resolve(container: TestDevice.containerID, path: Self.path, keep: .resolving([try #require(VersionID(fromA.id))]))
        a.sync()

        #expect(a.read("doc.txt") == "from c")
        let others = a.engine.conflicts().first?.others
        #expect(others?.map(\.device) == [b.engine.device.id], "\(String(describing: others))")
    }

    /// A device that has not taken the current version yet (its own lost) is given it:
    /// marking its version resolved must not publish that version again.
    @Test func aDeviceHoldingItsLosingVersionTakesTheCurrentOne() throws {
        let scratch = Scratch()
        let devices = try scratch.devices("a", "b", "c")
        let (a, b, c) = (devices[0], devices[1], devices[2])
        try a.write("doc.txt", "base")
        for device in devices { device.sync() }
        try b.write("doc.txt", "from b")
        try c.write("doc.txt", "from c")
        b.sync()
        c.sync()
        try a.write("doc.txt", "from a")
        a.sync()  // a's version is the latest: it wins; b has not seen it
        let fromB = try #require(a.engine.conflicts().first?.others.first { $0.device == b.engine.device.id })
        #expect(b.read("doc.txt") == "from b")

        try b.engine.resolve(container: TestDevice.containerID, path: Self.path, keep: .resolving([try #require(VersionID(fromB.id))]))
        for device in [b, a, c] { device.sync() }

        for device in devices {
            #expect(device.read("doc.txt") == "from a", "\(device.name)")
            #expect(device.engine.conflicts().first?.others.map(\.device) == [c.engine.device.id], "\(device.name)")
        }
    }

    /// A log line's time is its writer's word, any Int64: conflict versions dated at the end
    /// of time must not make the resolution's date overflow (a trap: the daemon's end).
    @Test func conflictVersionsDatedAtTheEndOfTimeDoNotCrashAResolution() async throws {
        await #expect(processExitsWith: .success) {
            let scratch = Scratch()
            let devices = try scratch.devices("a", "b", "c")
            let (a, b, c) = (devices[0], devices[1], devices[2])
            try a.write("doc.txt", "base")
            for device in devices { device.sync() }
            for device in devices { try device.write("doc.txt", "from \(device.name)") }
            for device in devices { device.sync() }
            for device in [b, c] { try PartialResolutionTests.dateAhead(device, byMilliseconds: nil) }
            a.sync()
            let conflict = try #require(a.engine.conflicts().first)
            let fromA = try #require(conflict.others.first { $0.device == a.engine.device.id })
            try a.engine.resolve(container: TestDevice.containerID, path: Self.path, keep: .resolving([try #require(VersionID(fromA.id))]))
            #expect(a.engine.conflicts().first?.others.count == 1)
        }
    }

    /// Three devices that each changed `doc.txt` at once: one current version, two conflict versions.
    private static func conflictOfThree(_ scratch: Scratch) throws -> [TestDevice] {
        let devices = try scratch.devices("a", "b", "c")
        try devices[0].write("doc.txt", "base")
        for device in devices { device.sync() }
        for device in devices { try device.write("doc.txt", "from \(device.name)") }
        for device in devices + devices { device.sync() }
        return devices
    }

    /// Moves the time of `device`'s last log line forward, as if its clock had been
    /// ahead, before any other device read it (nil: to Int64.max). The line keeps its
    /// length where it can (so the writer's check against a second writer still holds).
    private static func dateAhead(_ device: TestDevice, byMilliseconds shift: Int64?) throws {
        let log = MirrorLayout(root: device.mirror).log(container: TestDevice.containerID.identifier, device: device.engine.device.id)
        var lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let last = lines.count - 2  // the text ends with "\n"
        let line = String(lines[last])
        let time = try #require(line.firstMatch(of: /"time":(\d+)/))
        let later = String(shift.map { Int64(time.1)! + $0 } ?? .max)
        #expect(shift == nil || later.count == time.1.count)
        lines[last] = Substring(line.replacingCharacters(in: time.range, with: "\"time\":\(later)"))
        try lines.joined(separator: "\n").write(toFile: log, atomically: false, encoding: .utf8)
    }

    private static func inode(_ device: TestDevice) throws -> UInt64 {
        try #require(FileManager.default.attributesOfItem(atPath: device.documents + "/doc.txt")[.systemFileNumber] as? UInt64)
    }
}
