import Foundation
import Glibc
@testable import SyncEngine
import Testing

/// Parts of the mirror this device's user may not read for a while (a network share's
/// permissions): they cost a pass its news, never a wrong stop. Root reads everything, so
/// these run only as another user: `make test` runs them as `nobody` (scripts/test.sh).
@Suite("Mirror permissions (not as root)", .enabled(if: getuid() != 0, "root reads everything"))
struct MirrorPermissionTests {
    /// The log folder cannot be listed (mode 0300) while its files can be opened: no
    /// device is taken for a clone, and once it lists again sync goes on. Found in review.
    @Test func anUnlistableLogFolderStopsNothing() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("f.txt", "v0")
        a.sync(settled: true)
        try a.restart()
        let folder = MirrorLayout(root: a.mirror).logFolder(container: TestDevice.containerID.identifier)
        chmod(folder, 0o300)
        defer { chmod(folder, 0o755) }
        try a.write("g.txt", "g")
        let unlisted = a.sync(settled: true)
        chmod(folder, 0o755)
        let after = a.sync(settled: true)
        let report = b.sync()

        for problems in [unlisted.problems, after.problems] {
            #expect(!problems.contains { $0.contains("another machine writes it") }, "\(problems)")
        }
        #expect(b.read("g.txt") == "g", "\(report.problems)")
    }

    /// A `devices/` folder this user may not write in (the rest of the mirror writable): a
    /// new device cannot register, says so, and still sends its changes.
    @Test func aDeviceThatCannotRegisterStillSendsWhereItMayWrite() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        a.sync()
        let devices = MirrorLayout(root: a.mirror).devices
        chmod(devices, 0o555)
        defer { chmod(devices, 0o755) }
        let c = try TestDevice("c", in: scratch.path, mirror: a.mirror)
        try c.write("from-c.txt", "c's")
        c.sync()
        b.sync()

        let problem = c.status().problems.first ?? ""
        #expect(problem.hasPrefix("this device cannot register in the mirror (\(devices): Permission denied)"), "\(c.status().problems)")
        #expect(problem.contains("sends its own where the mirror lets it write"))
        #expect(b.read("from-c.txt") == "c's", "sent all the same")
    }
}
