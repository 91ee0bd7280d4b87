import APIModel
import Dispatch
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

    /// A mirror that stops answering during a pass blocks the pass's own call, whatever it
    /// is; the probe's call waits too, and the status says so instead of `syncing`.
    @Test func aPassUnderWayWhenTheMirrorStopsAnsweringIsSaidByTheProbe() throws {
        let (during, report, a) = try statusWhileTheProbeWaits { $0.probeSilenceLimit = .zero }
        #expect(during?.phase == .paused && during?.message?.contains("has not answered") == true, "\(String(describing: during))")
        #expect(report.published == 1, "the pass went on once the mirror answered")
        #expect(a.status().phase == .idle && a.status().mirrorUnansweredSeconds == nil)
        #expect(a.engine.statusLock.withLock { a.engine.mirrorProbe } == nil, "no probe between passes")
    }

    /// The probe's own limit holds during a pass, not the one for calls between passes: its
    /// call may queue behind the pass's writes on a slow share.
    @Test func aProbeWaitUnderItsLimitIsNotSaid() throws {
        let (during, _, _) = try statusWhileTheProbeWaits { $0.mirrorSilenceLimit = .zero }
        #expect(during?.phase == .syncing, "\(String(describing: during))")
    }

    /// The status seen from inside a pass of one upload while the probe's call waits, with
    /// the engine's limits set by `limits`.
    private func statusWhileTheProbeWaits(
        _ limits: (SyncEngine) -> Void
    ) throws -> (during: ContainerSyncStatus?, report: PassReport, device: TestDevice) {
        let scratch = Scratch()
        let a = try scratch.devices("a")[0]
        a.sync()
        try a.write("doc.txt", "to upload")
        let faults = FaultInjection()
        a.engine.faults = faults
        limits(a.engine)
        a.engine.mirrorProbeInterval = .milliseconds(1)
        let probing = DispatchSemaphore(value: 0), answer = DispatchSemaphore(value: 0)
        faults.interleave(at: "mirror probe") {  // on the probe's thread: its call waits
            probing.signal()
            _ = answer.wait(timeout: .now() + 60)
        }
        var during: ContainerSyncStatus?
        faults.interleave(at: "between actions") {  // on the pass's thread, before the upload
            let probed = probing.wait(timeout: .now() + 60) == .success
            during = probed ? a.status() : nil
            answer.signal()
        }
        let report = a.sync()
        return (during, report, a)
    }

    /// A user's request runs under a probe, and `ubq resolve`'s runs a pass, which probes
    /// too: the inner call keeps the probe asking, or the rest of the request goes unwatched.
    @Test func aProbeWithinAProbeIsTheSameOneAndOutlivesTheInnerCall() throws {
        let scratch = Scratch()
        let a = try scratch.devices("a")[0]
        let engine = a.engine
        func probe() -> MirrorProbe? { engine.statusLock.withLock { engine.mirrorProbe } }
        engine.probingMirror {
            let outer = probe()
            #expect(outer != nil)
            engine.probingMirror { #expect(probe() === outer, "one probe at a time") }
            #expect(probe() === outer, "still asking after the inner call")
        }
        #expect(probe() == nil)
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
