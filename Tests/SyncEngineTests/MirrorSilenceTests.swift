import APIModel
import Testing

@testable import SyncEngine

/// A mirror that does not answer (an NFS or sshfs mount whose server went away) blocks the
/// calls made to it, and the sync thread with them. Found with sshfs and a stopped
/// sftp-server: `ubq status` went on saying `idle` while the daemon waited.
@Suite struct MirrorSilenceTests {
    @Test func aMirrorCheckThatWaitsPastTheLimitIsSaidAndForgottenOnceAnswered() throws {
        let scratch = Scratch()
        let a = try scratch.devices("a")[0]
        try a.write("doc.txt", "synced")
        a.sync()
        let faults = FaultInjection()
        a.engine.faults = faults
        a.engine.mirrorSilenceLimit = .zero
        var during: ContainerSyncStatus?
        faults.interleave(at: "mirror call") { during = a.status() }  // while the call waits
        a.sync()
        #expect(during?.phase == .paused, "\(String(describing: during))")
        #expect(during?.message?.contains("the mirror \(a.mirror) has not answered for ") == true, "\(String(describing: during?.message))")
        #expect(during?.mirrorUnansweredSeconds != nil)
        #expect(a.status().phase == .idle && a.status().message == nil && a.status().mirrorUnansweredSeconds == nil, "answered: \(a.status())")
    }

    @Test func aPollThatWaitsIsSaidToo() throws {
        let scratch = Scratch()
        let a = try scratch.devices("a")[0]
        a.sync()
        let faults = FaultInjection()
        a.engine.faults = faults
        a.engine.mirrorSilenceLimit = .zero
        var during: ContainerSyncStatus?
        faults.interleave(at: "mirror call") { during = a.status() }
        _ = a.engine.mirrorHasNews()
        #expect(during?.phase == .paused && during?.message?.contains("has not answered") == true, "\(String(describing: during))")
        #expect(a.status().phase == .idle)
    }

    @Test func aShortWaitIsNotSaid() throws {
        let scratch = Scratch()
        let a = try scratch.devices("a")[0]
        a.sync()
        let faults = FaultInjection()
        a.engine.faults = faults  // the limit stays 5 s: these calls take milliseconds
        var during: ContainerSyncStatus?
        faults.interleave(at: "mirror call") { during = a.status() }
        a.sync()
        #expect(during != nil && during?.phase == .idle, "\(String(describing: during))")
    }
}
