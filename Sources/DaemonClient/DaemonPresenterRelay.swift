import APIModel
import Coordination
import Foundation
import UbiquitySettings

/// The relay the library's coordinators use: it announces each access to ubqd
/// (`POST /v1/coordination/begin`), which asks the presenters of other processes and
/// answers once they did or at the deadline, and reports its end (`.../end`).
///
/// When no presenter is registered anywhere (ubqd keeps the file `presenters.active` in its
/// runtime folder while one is) or ubqd is not running, it says nothing and costs one
/// `access(2)`: the access proceeds on its locks alone. A ubqd that does not answer within
/// the deadline plus 5 s (stopped, stuck) is given up on the same way: never a hang.
public struct DaemonPresenterRelay: PresenterRelay {
    public let socketPath: String
    /// The file whose presence says that some process has registered a presenter.
    public let markerPath: String
    /// How long presenters have to answer before the access goes ahead without them.
    public var deadline: Duration
    /// The id of the presenter the accesses are made for (NSFileCoordinator(filePresenter:)),
    /// asked at each access: it is left out of them. Nil, or an answer of nil: every
    /// presenter hears, this process's own too, unless `actingPresenter` names one.
    public var filePresenter: (@Sendable () -> String?)?

    /// The presenter one access is made for, when the coordinator names none: a `Document`
    /// sets it around its own reads and saves, so that it does not hear of them.
    @TaskLocal public static var actingPresenter: String?

    public static let defaultDeadline: Duration = .seconds(5)

    public init(
        socketPath: String, markerPath: String, deadline: Duration = Self.defaultDeadline, filePresenter: (@Sendable () -> String?)? = nil
    ) {
        self.socketPath = socketPath
        self.markerPath = markerPath
        self.deadline = deadline
        self.filePresenter = filePresenter
    }

    /// The relay for `ubqd` as `settings` locate it.
    public init(settings: Settings, deadline: Duration = Self.defaultDeadline, filePresenter: (@Sendable () -> String?)? = nil) {
        self.init(
            socketPath: settings.socketPath, markerPath: settings.runtimeDirectory + "/" + Self.markerName, deadline: deadline,
            filePresenter: filePresenter)
    }

    /// The marker's name in the runtime folder (ubqd creates and removes it).
    public static let markerName = "presenters.active"

    private var presentersMayExist: Bool { access(markerPath, F_OK) == 0 }

    private var client: DaemonClient { DaemonClient(socketPath: socketPath) }

    /// ubqd answers a begin by the deadline; past this, it is stuck (stopped) and the access
    /// goes ahead without it.
    private var callTimeout: Duration { deadline + .seconds(5) }
    private static let endTimeout: Duration = .seconds(5)

    public func accessWillBegin(_ access: AnnouncedAccess) async -> AnnouncedAccess.Ticket? {
        guard presentersMayExist else { return nil }
        let answer = try? await client.post(Route.coordinationBegin, body: request(access), as: AccessBeginResponse.self, timeout: callTimeout)
        return answer?.access.map(AnnouncedAccess.Ticket.init)
    }

    public func accessWillBeginBlocking(_ access: AnnouncedAccess) -> AnnouncedAccess.Ticket? {
        guard presentersMayExist else { return nil }
        let answer = try? client.postBlocking(Route.coordinationBegin, body: request(access), as: AccessBeginResponse.self, timeout: callTimeout)
        return answer?.access.map(AnnouncedAccess.Ticket.init)
    }

    public func accessDidEnd(_ ticket: AnnouncedAccess.Ticket, _ outcome: AnnouncedAccess.Outcome) async {
        _ = try? await client.post(Route.coordinationEnd, body: Self.end(ticket, outcome), as: AccessEndResponse.self, timeout: Self.endTimeout)
    }

    public func accessDidEndBlocking(_ ticket: AnnouncedAccess.Ticket, _ outcome: AnnouncedAccess.Outcome) {
        _ = try? client.postBlocking(Route.coordinationEnd, body: Self.end(ticket, outcome), as: AccessEndResponse.self, timeout: Self.endTimeout)
    }

    func request(_ access: AnnouncedAccess) -> AccessBeginRequest {
        let seconds = Double(deadline.components.seconds) + Double(deadline.components.attoseconds) / 1e18
        return AccessBeginRequest(items: access.items.map(Self.item), deadline: seconds, presenter: filePresenter?() ?? Self.actingPresenter)
    }

    static func item(_ item: AnnouncedAccess.Item) -> AccessedItem {
        if let options = item.writing {
            return AccessedItem(rawPath: item.path, access: .writing, options: names(options))
        }
        return AccessedItem(rawPath: item.path, access: .reading, options: names(item.reading ?? []))
    }

    static func names(_ options: FileCoordinator.ReadingOptions) -> [AccessedItem.Option] {
        let table: [(FileCoordinator.ReadingOptions, AccessedItem.Option)] = [
            (.withoutChanges, .withoutChanges), (.resolvesSymbolicLink, .resolvesSymbolicLink),
            (.immediatelyAvailableMetadataOnly, .immediatelyAvailableMetadataOnly), (.forUploading, .forUploading),
        ]
        return table.filter { options.contains($0.0) }.map(\.1)
    }

    static func names(_ options: FileCoordinator.WritingOptions) -> [AccessedItem.Option] {
        let table: [(FileCoordinator.WritingOptions, AccessedItem.Option)] = [
            (.forDeleting, .forDeleting), (.forMoving, .forMoving), (.forMerging, .forMerging),
            (.forReplacing, .forReplacing), (.contentIndependentMetadataOnly, .contentIndependentMetadataOnly),
        ]
        return table.filter { options.contains($0.0) }.map(\.1)
    }

    static func end(_ ticket: AnnouncedAccess.Ticket, _ outcome: AnnouncedAccess.Outcome) -> AccessEndRequest {
        AccessEndRequest(access: ticket.id, accessed: outcome.accessed, moves: outcome.moves.map { AccessMove(from: $0.from, to: $0.to) })
    }
}
