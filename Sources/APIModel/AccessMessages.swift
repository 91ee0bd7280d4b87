import struct Foundation.Data

/// One item of a coordinated access announced to ubqd, with NSFileCoordinator's option names.
public struct AccessedItem: Codable, Sendable, Hashable {
    public enum Access: String, Codable, Sendable {
        case reading, writing
    }

    /// Option names: `withoutChanges`, `resolvesSymbolicLink`, `immediatelyAvailableMetadataOnly`,
    /// `forUploading` (reading); `forDeleting`, `forMoving`, `forMerging`, `forReplacing`,
    /// `contentIndependentMetadataOnly` (writing).
    public enum Option: String, Codable, Sendable, CaseIterable {
        case withoutChanges, resolvesSymbolicLink, immediatelyAvailableMetadataOnly, forUploading
        case forDeleting, forMoving, forMerging, forReplacing, contentIndependentMetadataOnly
    }

    /// The canonical absolute path (raw bytes, base64 in JSON).
    public var rawPath: Data
    public var access: Access
    public var options: [Option]

    public init(rawPath: [UInt8], access: Access, options: [Option] = []) {
        self.rawPath = Data(rawPath)
        self.access = access
        self.options = options
    }

    public var path: [UInt8] { Array(rawPath) }

    public func has(_ option: Option) -> Bool { options.contains(option) }
}

/// `POST /v1/coordination/begin`: a process is about to take a coordinated claim. ubqd asks
/// the affected presenters and answers once they all did, or at the deadline.
public struct AccessBeginRequest: Codable, Sendable, Equatable {
    public var items: [AccessedItem]
    /// Seconds to wait for presenters' answers (default 5, at most 60); a presenter that has
    /// not answered by then is skipped and logged.
    public var deadline: Double?
    /// The presenter (its id in the calling process's session) the access is made for, as
    /// NSFileCoordinator(filePresenter:) names it: it is neither asked nor told. Every other
    /// presenter is, the calling process's own too. An id the calling process did not
    /// register leaves nobody out.
    public var presenter: String?

    public init(items: [AccessedItem], deadline: Double? = nil, presenter: String? = nil) {
        self.items = items
        self.deadline = deadline
        self.presenter = presenter
    }
}

/// A presenter that did not answer before the deadline.
public struct SkippedPresenter: Codable, Sendable, Equatable {
    public var pid: Int32
    public var program: String
    public var path: String

    public init(pid: Int32, program: String, path: String) {
        self.pid = pid
        self.program = program
        self.path = path
    }
}

public struct AccessBeginResponse: Codable, Sendable, Equatable {
    /// The id to end the access with; nil when no presenter needs to hear of its end.
    public var access: Int?
    /// How many presenters were asked, and how many answered in time.
    public var asked: Int
    public var answered: Int
    public var skipped: [SkippedPresenter]

    public init(access: Int?, asked: Int = 0, answered: Int = 0, skipped: [SkippedPresenter] = []) {
        self.access = access
        self.asked = asked
        self.answered = answered
        self.skipped = skipped
    }
}

/// A move made by a `forMoving` write (`FileCoordinator.item(at:didMoveTo:)`).
public struct AccessMove: Codable, Sendable, Hashable {
    public var from: Data
    public var to: Data

    public init(from: [UInt8], to: [UInt8]) {
        self.from = Data(from)
        self.to = Data(to)
    }
}

/// `POST /v1/coordination/end`: the access is over (or never ran: `accessed` false, after a
/// timeout or a cancellation). ubqd tells the presenters (reacquire, then what changed) and
/// answers at once.
public struct AccessEndRequest: Codable, Sendable, Equatable {
    public var access: Int
    public var accessed: Bool
    public var moves: [AccessMove]

    public init(access: Int, accessed: Bool, moves: [AccessMove] = []) {
        self.access = access
        self.accessed = accessed
        self.moves = moves
    }
}

public struct AccessEndResponse: Codable, Sendable, Equatable {
    /// How many presenters were told.
    public var notified: Int

    public init(notified: Int) {
        self.notified = notified
    }
}
