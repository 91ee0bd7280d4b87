/// Tells the file presenters (of every process, this one's too) about this process's coordinated accesses,
/// as NSFileCoordinator does through the system: before the claim is taken the relay asks
/// them to save and relinquish (and waits for their answers, up to its own deadline); after
/// the claim is released it tells them to reacquire and what changed.
///
/// The Ubiquity library's relay goes through ubqd; `FileCoordinator` takes one at `init`
/// (none: locks only). A relay never fails an access: if nobody can be told (ubqd is not
/// running), the access goes ahead with its locks alone.
///
/// Presenters are asked *before* the claim, not once it is held, so that a presenter may
/// save with a coordinated write of its own without waiting for the claim it is asked for.
public protocol PresenterRelay: Sendable {
    /// Announces an access before its claim; returns what `accessDidEnd` needs, or nil
    /// when nobody has to hear of its end.
    func accessWillBegin(_ access: AnnouncedAccess) async -> AnnouncedAccess.Ticket?
    /// The blocking form, for the blocking `coordinate` calls.
    func accessWillBeginBlocking(_ access: AnnouncedAccess) -> AnnouncedAccess.Ticket?
    /// Reports the end of the access (the claim is released by then).
    func accessDidEnd(_ ticket: AnnouncedAccess.Ticket, _ outcome: AnnouncedAccess.Outcome) async
    func accessDidEndBlocking(_ ticket: AnnouncedAccess.Ticket, _ outcome: AnnouncedAccess.Outcome)
}

/// A coordinated access as a relay sees it: canonical paths and options.
public struct AnnouncedAccess: Sendable, Equatable {
    public struct Item: Sendable, Equatable {
        /// The canonical absolute path (the one the claim locks).
        public var path: [UInt8]
        /// Set for a read.
        public var reading: FileCoordinator.ReadingOptions?
        /// Set for a write.
        public var writing: FileCoordinator.WritingOptions?
    }

    /// What the relay gave back at the start (ubqd's access id).
    public struct Ticket: Sendable, Hashable {
        public var id: Int
        public init(id: Int) { self.id = id }
    }

    public struct Outcome: Sendable, Equatable {
        /// False when the claim was never had (timed out, cancelled, failed).
        public var accessed: Bool
        /// Moves recorded with `FileCoordinator.item(at:didMoveTo:)` during a `.forMoving` write.
        public var moves: [Move]
    }

    public struct Move: Sendable, Equatable {
        public var from: [UInt8]
        public var to: [UInt8]
    }

    public var items: [Item]
}
