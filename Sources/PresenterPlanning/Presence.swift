import APIModel

/// Names one registered presenter: its process's session and the id the process gave it.
public struct PresenterID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var session: String
    public var presenter: String

    public init(session: String, presenter: String) {
        self.session = session
        self.presenter = presenter
    }

    public static func < (lhs: PresenterID, rhs: PresenterID) -> Bool {
        (lhs.session, lhs.presenter) < (rhs.session, rhs.presenter)
    }

    public var description: String { "\(session)/\(presenter)" }
}

/// A registered presenter as the planner needs it: who, in which process, presenting what.
public struct Presence: Hashable, Sendable {
    public var id: PresenterID
    public var pid: Int32
    /// The presented item's canonical absolute path.
    public var path: [UInt8]

    public init(id: PresenterID, pid: Int32, path: [UInt8]) {
        self.id = id
        self.pid = pid
        self.path = path
    }
}

/// The messages one presenter gets at one step, in the order it must run them.
public struct PresenterPlan: Hashable, Sendable {
    public var presence: Presence
    public var messages: [PresenterMessage]

    public init(presence: Presence, messages: [PresenterMessage]) {
        self.presence = presence
        self.messages = messages
    }

    /// Whether the presenter must answer (some message is asked).
    public var isAsked: Bool { messages.contains { $0.kind.isAsked } }

    /// Whether it was asked to relinquish, so a `reacquire` is owed after the access.
    public var relinquishes: Bool { messages.contains { $0.kind.isRelinquish } }
}

extension Array where Element == PresenterMessage {
    /// Appends the messages not already in the list (one presenter affected by two items
    /// of one access saves once).
    mutating func appendNew(_ messages: [PresenterMessage]) {
        for message in messages where !contains(message) { append(message) }
    }
}
