import FileEvents
import RawPaths
import Testing

@Suite struct EventSettlerTests {
    let ms: UInt64 = 1_000_000
    func settler() -> EventSettler { EventSettler(quietPeriodNanoseconds: 50 * ms, openFileTimeoutNanoseconds: 2000 * ms) }

    @Test func closedFileSettlesAfterQuietPeriod() {
        var settler = settler()
        settler.record(.touched("a.txt", stillOpen: false), at: 0)
        #expect(settler.takeSettled(at: 49 * ms).isEmpty)
        #expect(settler.takeSettled(at: 50 * ms) == [.look("a.txt")])
        #expect(settler.pendingCount == 0)
    }

    @Test func burstOfEventsOnOnePathGivesOneLook() {
        var settler = settler()
        // vim with backupcopy=no: rename away, create, write, close, delete the backup.
        settler.record(.removed("a.txt"), at: 0)
        settler.record(.touched("a.txt~", stillOpen: false), at: 1 * ms)
        settler.record(.touched("a.txt", stillOpen: false), at: 2 * ms)
        settler.record(.touched("a.txt", stillOpen: true), at: 3 * ms)
        settler.record(.touched("a.txt", stillOpen: false), at: 4 * ms)
        settler.record(.removed("a.txt~"), at: 5 * ms)
        #expect(settler.takeSettled(at: 100 * ms) == [.look("a.txt"), .look("a.txt~")])
        #expect(settler.pendingCount == 0)
    }

    @Test func quietPeriodRestartsWithEachEvent() {
        var settler = settler()
        settler.record(.touched("big", stillOpen: false), at: 0)
        settler.record(.touched("big", stillOpen: false), at: 40 * ms)
        #expect(settler.takeSettled(at: 60 * ms).isEmpty)
        #expect(settler.nextDeadline == 90 * ms)
        #expect(settler.takeSettled(at: 90 * ms) == [.look("big")])
    }

    @Test func fileStillOpenWaitsForCloseOrTimeout() {
        var settler = settler()
        settler.record(.touched("log", stillOpen: true), at: 0)
        #expect(settler.takeSettled(at: 500 * ms).isEmpty)
        #expect(settler.takeSettled(at: 2000 * ms) == [.look("log")])
    }

    @Test func cookieReleasesClosedPathsButNotOpenOnes() {
        var settler = settler()
        settler.record(.touched("done", stillOpen: false), at: 0)
        settler.record(.touched("writing", stillOpen: true), at: 0)
        settler.record(.cookie(".ubq-cookie-1"), at: 1 * ms)
        #expect(settler.takeCompleted() == [.look("done")])
        #expect(settler.takeCookies() == [".ubq-cookie-1"])
        #expect(settler.takeCookies().isEmpty)
        #expect(settler.pendingCount == 1)
    }

    @Test func folderMoveCarriesPendingPathsAlong() {
        var settler = settler()
        settler.record(.touched("a/x/file", stillOpen: false), at: 0)
        settler.record(.touched("ab/file", stillOpen: false), at: 0)
        settler.record(.moved(from: "a", to: "b/c"), at: 1 * ms)
        #expect(settler.takeSettled(at: 2 * ms) == [.moved(from: "a", to: "b/c")])
        #expect(Set(settler.takeSettled(at: 100 * ms)) == [.look("ab/file"), .look("b/c/x/file")])
    }

    @Test func openAndClosedPathsSettleInDeadlineOrder() {
        var settler = settler()
        settler.record(.touched("open", stillOpen: true), at: 0)
        settler.record(.touched("closed", stillOpen: false), at: 10 * ms)
        #expect(settler.nextDeadline == 60 * ms)
        #expect(settler.takeSettled(at: 60 * ms) == [.look("closed")])
        #expect(settler.nextDeadline == 2000 * ms)
        settler.record(.touched("open", stillOpen: false), at: 100 * ms)
        #expect(settler.takeSettled(at: 150 * ms) == [.look("open")])
        #expect(settler.takeSettled(at: 3000 * ms).isEmpty)
        #expect(settler.nextDeadline == nil)
    }

    @Test func manyPathsSettleInLinearTime() {
        var settler = settler()
        for i in 0..<50_000 { settler.record(.touched(RawPath("f\(i)"), stillOpen: false), at: UInt64(i)) }
        let settled = settler.takeSettled(at: 100 * ms)
        #expect(settled.count == 50_000)
        #expect(settled.first == .look("f0"))
        #expect(settler.pendingCount == 0)
    }

    @Test func rescanIsReleasedAtOnce() {
        var settler = settler()
        settler.record(.rescan("new"), at: 0)
        #expect(settler.nextDeadline == 0)
        #expect(settler.takeSettled(at: 0) == [.rescan("new")])
    }
}
