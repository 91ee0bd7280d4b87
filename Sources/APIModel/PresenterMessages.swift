import struct Foundation.Data

/// One call on a file presenter, as NSFilePresenter names its methods. The first five are
/// asked before another process's coordinated access and answered (`POST
/// /v1/presenters/reply`); the rest are told after, or when the watcher saw a change.
public struct PresenterMessage: Codable, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// `savePresentedItemChanges(completionHandler:)`
        case savePresentedItemChanges
        /// `relinquishPresentedItem(toReader:)`; its reacquirer runs on `reacquire`.
        case relinquishToReader
        /// `relinquishPresentedItem(toWriter:)`; its reacquirer runs on `reacquire`.
        case relinquishToWriter
        /// `accommodatePresentedItemDeletion(completionHandler:)`
        case accommodateDeletion
        /// `accommodatePresentedSubitemDeletion(at:completionHandler:)`, at `rawPath`.
        case accommodateSubitemDeletion
        /// Runs the reacquirers the presenter gave when it relinquished for the line's `request`.
        case reacquire
        /// `presentedItemDidChange()`
        case didChange
        /// `presentedItemDidMove(to:)`, to `rawPath`.
        case didMove
        /// `presentedSubitemDidChange(at:)`, at `rawPath` (also for a subitem that is gone).
        case subitemDidChange
        /// `presentedSubitemDidAppear(at:)`, at `rawPath`.
        case subitemDidAppear
        /// `presentedSubitem(at:didMoveTo:)`, from `rawPath` to `rawDestination`.
        case subitemDidMove
        /// `presentedItemDidGain(_:)`: the item has a new unresolved conflict `version`
        /// (another device changed it at the same time), of `item`.
        case didGainVersion
        /// `presentedItemDidResolveConflict(_:)`: the conflict `version` of `item` was
        /// resolved, here or on another device.
        case didResolveConflictVersion
        /// `presentedItemDidLose(_:)`: the conflict `version` of `item` was removed from its
        /// versions (`removeOtherVersionsOfItem`, here or on another device).
        case didLoseVersion

        /// Whether the presenter answers it (the asking side waits for the answer).
        public var isAsked: Bool {
            switch self {
            case .savePresentedItemChanges, .relinquishToReader, .relinquishToWriter, .accommodateDeletion,
                 .accommodateSubitemDeletion:
                return true
            default: return false
            }
        }

        public var isRelinquish: Bool { self == .relinquishToReader || self == .relinquishToWriter }
    }

    public var kind: Kind
    /// The subitem, or the new location for `didMove` (raw path bytes, base64 in JSON).
    public var rawPath: Data?
    /// Where the subitem went, for `subitemDidMove`.
    public var rawDestination: Data?
    /// The version gained or resolved, and the item it is a version of, as the version
    /// routes name it: for `didGainVersion` and `didResolveConflictVersion`.
    public var version: VersionInfo?
    public var item: VersionedItem?

    public init(
        _ kind: Kind, rawPath: [UInt8]? = nil, rawDestination: [UInt8]? = nil, version: VersionInfo? = nil, item: VersionedItem? = nil
    ) {
        self.kind = kind
        self.rawPath = rawPath.map { Data($0) }
        self.rawDestination = rawDestination.map { Data($0) }
        self.version = version
        self.item = item
    }

    public var description: String {
        let paths = [rawPath, rawDestination].compactMap { $0 }.map { String(decoding: $0, as: UTF8.self) }
        return ([kind.rawValue] + paths + [version?.id].compactMap { $0 }).joined(separator: " ")
    }
}

/// One line of a presenter session's stream (`POST /v1/presenters/connect`, NDJSON).
public struct PresenterLine: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        /// The first line: the session id to name in `add`, `remove` and `reply`.
        case connected
        /// Messages to run in order, then answer with `POST /v1/presenters/reply`.
        case request
        /// Messages to run in order; no answer.
        case notice
        /// The last line: ubqd ends the session (`reason` says why).
        case closed
    }

    public var kind: Kind
    public var session: String?
    /// For a request, its id (to answer); for a notice, the request whose relinquishing it ends.
    public var request: Int?
    public var presenter: String?
    public var messages: [PresenterMessage]?
    public var reason: String?

    public init(
        kind: Kind, session: String? = nil, request: Int? = nil, presenter: String? = nil,
        messages: [PresenterMessage]? = nil, reason: String? = nil
    ) {
        self.kind = kind
        self.session = session
        self.request = request
        self.presenter = presenter
        self.messages = messages
        self.reason = reason
    }
}

/// `POST /v1/presenters/connect`: opens a process's presenter session.
public struct PresenterConnectRequest: Codable, Sendable, Equatable {
    /// The program's name for `ubq presenters` (default: the peer's `/proc/PID/comm`).
    public var program: String?

    public init(program: String? = nil) {
        self.program = program
    }
}

/// `POST /v1/presenters/add`: presents `rawPath` (a file or a folder) in a session; adding
/// an id again moves it to the new path. `POST /v1/presenters/remove` takes the same body
/// (the path is then ignored).
public struct PresenterAddRequest: Codable, Sendable, Equatable {
    public var session: String
    public var presenter: String
    public var rawPath: Data

    public init(session: String, presenter: String, rawPath: [UInt8]) {
        self.session = session
        self.presenter = presenter
        self.rawPath = Data(rawPath)
    }
}

/// `POST /v1/presenters/reply`: a presenter has run the messages of a request.
public struct PresenterReply: Codable, Sendable, Equatable {
    public var session: String
    public var request: Int
    public var presenter: String
    /// What the presenter's completion handler reported, if it failed (the access goes ahead).
    public var error: String?

    public init(session: String, request: Int, presenter: String, error: String? = nil) {
        self.session = session
        self.request = request
        self.presenter = presenter
        self.error = error
    }
}

/// One registered presenter, as `GET /v1/presenters` and `ubq presenters --json` list it.
public struct PresenterInfo: Codable, Sendable, Equatable {
    public var pid: Int32
    public var program: String
    /// The presented item, readable (`rawPath` has its bytes).
    public var path: String
    public var rawPath: Data
    /// When it was registered (ISO 8601).
    public var since: String
    public var session: String
    public var presenter: String

    public init(pid: Int32, program: String, rawPath: [UInt8], since: String, session: String, presenter: String) {
        self.pid = pid
        self.program = program
        self.path = String(decoding: rawPath, as: UTF8.self)
        self.rawPath = Data(rawPath)
        self.since = since
        self.session = session
        self.presenter = presenter
    }
}
