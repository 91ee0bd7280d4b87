import Testing

@testable import UbiquityDaemon

/// A user's request to the sync thread is answered once: by the call, or by the mirror's
/// silence (`SyncWorker.runForUser`), whichever comes first. A request given up on while
/// queued must never run (a `ubq restore` the user was told was not done); one given up on
/// while running is said to be under way.
@Suite(.timeLimit(.minutes(10))) struct UserCallTests {
    struct Silence: Error, Equatable {
        var started: Bool
    }

    @Test func aCallGivenUpOnWhileQueuedNeverStarts() async {
        let call = UserCall<Int>()
        let answer = await answer(of: call) {
            call.giveUp { Silence(started: $0) }
            #expect(!call.start(), "given up on: it must not run")
            call.finish(.success(1))
        }
        #expect(answer == .failure(Silence(started: false)))
        #expect(call.isAnswered)
    }

    @Test func aCallGivenUpOnWhileRunningIsSaidToBeUnderWayAndItsResultIsDropped() async {
        let call = UserCall<Int>()
        let answer = await answer(of: call) {
            #expect(call.start())
            call.giveUp { Silence(started: $0) }
            call.finish(.success(1))
        }
        #expect(answer == .failure(Silence(started: true)))
    }

    @Test func aCallThatFinishesFirstIsAnsweredWithItsResult() async {
        let call = UserCall<Int>()
        #expect(!call.isAnswered)
        let answer = await answer(of: call) {
            #expect(call.start())
            call.finish(.success(7))
            call.giveUp { Silence(started: $0) }
        }
        #expect(answer == .success(7))
    }

    /// What the caller waiting on `call` is answered, once `steps` ran.
    private func answer(of call: UserCall<Int>, after steps: () -> Void) async -> Result<Int, Silence>? {
        do {
            return .success(try await withCheckedThrowingContinuation { call.wait($0); steps() })
        } catch let silence as Silence {
            return .failure(silence)
        } catch {
            Issue.record("answered with \(error)")
            return nil
        }
    }
}
