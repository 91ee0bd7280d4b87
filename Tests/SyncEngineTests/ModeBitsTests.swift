import Foundation
import Glibc
@testable import SyncEngine
import Testing

/// Sync carries permission bits, and never the set-user-ID, set-group-ID and sticky bits
/// (`SyncedMode`): any device can write the mirror.
@Suite struct ModeBitsTests {
    static func mode(_ path: String) -> mode_t {
        var info = stat()
        lstat(path, &info)
        return info.st_mode & 0o7777
    }

    @Test func permissionBitsTravelAndSetIDAndStickyBitsDoNot() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("tool.sh", "#!/bin/sh\nid\n")
        chmod(a.documents + "/tool.sh", 0o6750)
        try FileManager.default.createDirectory(atPath: a.documents + "/shared", withIntermediateDirectories: true)
        chmod(a.documents + "/shared", 0o1777)
        a.sync()
        b.sync()

        #expect(Self.mode(b.documents + "/tool.sh") == 0o750)
        #expect(Self.mode(b.documents + "/shared") == 0o777)
        #expect(Self.mode(a.documents + "/tool.sh") == 0o6750, "a keeps its own bits")
        #expect(a.sync().published == 0, "and does not publish them again")
    }

    /// Versions that differ by their mode alone tell it (`ubq versions` showed them alike).
    @Test func versionsTellTheirMode() throws {
        let scratch = Scratch()
        let a = try scratch.devices("a")[0]
        try a.write("run.sh", "#!/bin/sh\n")
        a.sync()
        chmod(a.documents + "/run.sh", 0o755)
        a.sync()
        #expect(try a.versions("run.sh").map(\.mode) == ["755", "644"])
    }

    /// A log that names set-ID bits anyway (written by another program, or by hand): they
    /// are not applied.
    @Test func aLogsSetIDBitsAreNotApplied() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("tool.sh", "#!/bin/sh\nid\n")
        a.sync()
        let log = MirrorLayout(root: a.mirror).log(container: TestDevice.containerID.identifier, device: a.engine.device.id)
        let text = try String(contentsOfFile: log, encoding: .utf8)
        #expect(text.contains("\"mode\":420"), "\(text)")  // 0o644
        try text.replacingOccurrences(of: "\"mode\":420", with: "\"mode\":3565").write(toFile: log, atomically: false, encoding: .utf8)  // 0o6755
        b.sync()

        #expect(b.read("tool.sh") == "#!/bin/sh\nid\n")
        #expect(Self.mode(b.documents + "/tool.sh") == 0o755)
    }
}
