import Foundation
import Glibc
import Testing

/// The API socket answers only its owner's uid (SO_PEERCRED), even when the socket's file
/// permissions would let another user in.
@Suite(.serialized) struct PeerCredentialTests {
    /// A command that runs the rest of its arguments as uid/gid 65534 (nobody); nil when
    /// this machine cannot (not root, or neither setpriv nor runuser installed).
    static let asNobody: [String]? = {
        guard getuid() == 0 else { return nil }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") {
            return ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
        }
        if FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") {
            return ["/usr/sbin/runuser", "-u", "nobody", "--"]
        }
        return nil
    }()

    @Test(.enabled(if: asNobody != nil, "running a client as another uid needs root and setpriv or runuser"))
    func anotherUserIsRefusedAndLoggedWhileTheOwnerIsServed() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        // Open the socket up, as a mistaken chmod would: only the peer check remains.
        let runtime = daemon.base + "/run"
        #expect(chmod(runtime, 0o755) == 0 && chmod(runtime + "/ubqd.sock", 0o666) == 0)
        let command = try #require(Self.asNobody)
        let refused = try CommandResult.run(command[0], Array(command.dropFirst()) + [DaemonHarness.binaries + "/ubq", "status"], environment: daemon.environment)
        #expect(refused.status == 1, "stdout: \(refused.text) stderr: \(refused.errorText)")
        #expect(refused.errorText.contains("serves only its own user (uid 0)"), "\(refused.errorText)")
        #expect(refused.errorText.contains("uid 65534"))
        try daemon.waitForLog("refused a connection from uid 65534")
        #expect(try daemon.ubq(["status"]).status == 0)
    }

    @Test func theSocketIsPrivateToItsOwner() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        var info = stat()
        #expect(stat(daemon.base + "/run/ubqd.sock", &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(stat(daemon.base + "/run", &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
    }
}
