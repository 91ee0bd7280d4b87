import Foundation
import Synchronization
import Testing
@testable import Coordination

/// What a coordinator tells its presenter relay, in order, with a fake relay that records it.
final class RecordingRelay: PresenterRelay {
    let events = Mutex<[String]>([])
    /// Whether the relay's answer gives a ticket (someone wants to hear the end).
    let interested: Bool
    /// Run while announcing: what the claim looks like from outside before it is taken.
    let duringAnnouncement: @Sendable () -> Void

    init(interested: Bool = true, duringAnnouncement: @escaping @Sendable () -> Void = {}) {
        self.interested = interested
        self.duringAnnouncement = duringAnnouncement
    }

    func record(_ event: String) { events.withLock { $0.append(event) } }

    func accessWillBegin(_ access: AnnouncedAccess) async -> AnnouncedAccess.Ticket? { accessWillBeginBlocking(access) }

    func accessWillBeginBlocking(_ access: AnnouncedAccess) -> AnnouncedAccess.Ticket? {
        let items = access.items.map { ($0.writing != nil ? "write " : "read ") + String(decoding: $0.path, as: UTF8.self) }
        record("begin " + items.joined(separator: ", "))
        duringAnnouncement()
        return interested ? AnnouncedAccess.Ticket(id: 7) : nil
    }

    func accessDidEnd(_ ticket: AnnouncedAccess.Ticket, _ outcome: AnnouncedAccess.Outcome) async { accessDidEndBlocking(ticket, outcome) }

    func accessDidEndBlocking(_ ticket: AnnouncedAccess.Ticket, _ outcome: AnnouncedAccess.Outcome) {
        let moves = outcome.moves.map { String(decoding: $0.from, as: UTF8.self) + " -> " + String(decoding: $0.to, as: UTF8.self) }
        record("end \(ticket.id) accessed=\(outcome.accessed)" + (moves.isEmpty ? "" : " moved " + moves.joined(separator: ", ")))
    }
}

@Suite("The presenter relay hook")
struct PresenterRelayTests {
    @Test("the relay hears of a write before its claim is taken and of its end after the release")
    func beginBeforeClaimEndAfterRelease() throws {
        let sandbox = try Sandbox()
        let url = sandbox.url("a/x")
        let path = url.resolvingSymlinksInPath().path
        let locks = sandbox.locks
        let other = try FileCoordinator(lockDirectory: locks)
        let relay = RecordingRelay(duringAnnouncement: {
            // The claim is not taken yet: another coordinator can still write.
            try? other.coordinate(writingItemAt: url, timeout: .zero) { _ in }
        })
        let coordinator = try FileCoordinator(lockDirectory: locks, relay: relay)
        try coordinator.coordinate(writingItemAt: url) { _ in relay.record("accessor") }
        try other.coordinate(writingItemAt: url, timeout: .zero) { _ in }  // released
        #expect(relay.events.withLock { $0 } == ["begin write \(path)", "accessor", "end 7 accessed=true"])
    }

    @Test("a forMoving write reports the move it recorded")
    func moveReported() async throws {
        let sandbox = try Sandbox()
        let relay = RecordingRelay()
        let coordinator = try FileCoordinator(lockDirectory: sandbox.locks, relay: relay)
        let from = sandbox.url("c/w"), to = sandbox.url("c/moved")
        try await coordinator.coordinate(writingItemAt: from, options: .forMoving, byAsyncAccessor: { url in
            try FileManager.default.moveItem(at: url, to: to)
            try coordinator.item(at: url, didMoveTo: to)
        })
        let last = try #require(relay.events.withLock { $0.last })
        #expect(last == "end 7 accessed=true moved \(from.resolvingSymlinksInPath().path) -> \(to.resolvingSymlinksInPath().path)")
    }

    @Test("an access that times out still ends, as not accessed")
    func timeoutEnds() throws {
        let sandbox = try Sandbox()
        let holder = try FileCoordinator(lockDirectory: sandbox.locks)
        let relay = RecordingRelay()
        let coordinator = try FileCoordinator(lockDirectory: sandbox.locks, relay: relay)
        try holder.coordinate(writingItemAt: sandbox.url("a")) { _ in
            #expect(throws: CoordinationError.self) {
                try coordinator.coordinate(readingItemAt: sandbox.url("a/x"), timeout: .zero) { _ in }
            }
        }
        #expect(relay.events.withLock { $0.last } == "end 7 accessed=false")
    }

    @Test("no end is reported when the relay wanted none")
    func noTicketNoEnd() throws {
        let sandbox = try Sandbox()
        let relay = RecordingRelay(interested: false)
        let coordinator = try FileCoordinator(lockDirectory: sandbox.locks, relay: relay)
        try coordinator.coordinate(readingItemAt: sandbox.url("a/x")) { _ in }
        #expect(relay.events.withLock { $0.count } == 1)
    }
}
