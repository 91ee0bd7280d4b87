import Foundation
import Testing

/// The unit file, checked by the real systemd-analyze (no systemd runs as PID 1 here, so
/// the unit is verified and scored, not started).
@Suite struct SystemdUnitTests {
    static let unit = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("systemd/ubqd.service")

    /// A copy of the unit whose ExecStart names the built binary (verify fails on a
    /// missing binary), in a private runtime folder as `--user` needs.
    func stagedUnit() throws -> (folder: String, unit: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-unit-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let text = try String(contentsOf: Self.unit, encoding: .utf8)
            .replacingOccurrences(of: "%h/.local/bin/ubqd", with: DaemonHarness.binaries + "/ubqd")
        let path = folder + "/ubqd.service"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return (folder, path)
    }

    @Test func verifyReportsNothing() throws {
        let (folder, unit) = try stagedUnit()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try CommandResult.run("/usr/bin/systemd-analyze", ["verify", "--user", "--man=no", unit], environment: ["XDG_RUNTIME_DIR": folder, "PATH": "/usr/bin:/bin"])
        #expect(result.status == 0)
        #expect(result.errorText.isEmpty, "\(result.errorText)")
    }

    @Test func securityExposureIsAtMostThree() throws {
        let (folder, unit) = try stagedUnit()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try CommandResult.run("/usr/bin/systemd-analyze", ["security", "--offline=true", "--threshold=30", unit], environment: ["XDG_RUNTIME_DIR": folder, "PATH": "/usr/bin:/bin"])
        let line = try #require(result.text.split(separator: "\n").first { $0.contains("Overall exposure level") })
        let score = try #require(line.split(separator: " ").compactMap { Double($0) }.first)
        print("systemd-analyze security: exposure \(score)")
        #expect(score <= 3.0)
        #expect(result.status == 0)
    }
}
