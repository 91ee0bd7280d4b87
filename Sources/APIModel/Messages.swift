import struct Foundation.Data

/// `GET /v1/status`.
public struct DaemonStatus: Codable, Sendable, Equatable {
    public var version: String
    public var pid: Int32
    public var root: String
    public var containers: Int
    public var items: Int
    /// Paths seen changing that have not settled yet.
    public var pending: Int
    public var watchedFolders: Int
    public var polledFolders: Int
    /// Items whose content (sniffed type, text, diary entries) is still to be read after
    /// the start-up scan.
    public var contentPending: Int
    /// Why the index could not take the latest changes (a full disk), while they wait to
    /// be applied again; absent when the index is keeping up.
    public var indexError: String?
    public var summary: String

    public init(
        version: String, pid: Int32, root: String, containers: Int, items: Int, pending: Int, watchedFolders: Int, polledFolders: Int,
        contentPending: Int = 0, indexError: String? = nil, summary: String
    ) {
        self.version = version
        self.pid = pid
        self.root = root
        self.containers = containers
        self.items = items
        self.pending = pending
        self.watchedFolders = watchedFolders
        self.polledFolders = polledFolders
        self.contentPending = contentPending
        self.indexError = indexError
        self.summary = summary
    }
}

/// One container, as `ubq containers --json` prints it.
public struct ContainerInfo: Codable, Sendable, Equatable {
    public var id: String
    /// The container folder (a path, as NSFileManager's `url(forUbiquityContainerIdentifier:)` gives).
    public var url: String
    public var documents: String
    public var items: Int

    public init(id: String, url: String, documents: String, items: Int) {
        self.id = id
        self.url = url
        self.documents = documents
        self.items = items
    }
}

/// Which part of a container a query searches (NSMetadataQuery's search scopes).
public enum SearchScope: String, Codable, Sendable, CaseIterable {
    case documents, data, all
}

public struct SortKey: Codable, Sendable, Equatable {
    public var attribute: String
    public var ascending: Bool

    public init(attribute: String, ascending: Bool = true) {
        self.attribute = attribute
        self.ascending = ascending
    }
}

/// `POST /v1/query`: an NSMetadataQuery.
public struct QueryRequest: Codable, Sendable, Equatable {
    /// An NSPredicate format string or a Spotlight query string; nil matches everything.
    public var predicate: String?
    /// Container ids to search; nil or empty searches all.
    public var containers: [String]?
    public var scope: SearchScope
    public var sort: [SortKey]
    public var limit: Int?
    /// Attributes to return; nil returns every attribute.
    public var attributes: [String]?
    /// Wait until every change completed before the request is visible (a sync cookie).
    public var sync: Bool
    /// Only explain how the predicate runs; return no items.
    public var explain: Bool

    public init(predicate: String? = nil, containers: [String]? = nil, scope: SearchScope = .documents, sort: [SortKey] = [], limit: Int? = nil, attributes: [String]? = nil, sync: Bool = true, explain: Bool = false) {
        self.predicate = predicate
        self.containers = containers
        self.scope = scope
        self.sort = sort
        self.limit = limit
        self.attributes = attributes
        self.sync = sync
        self.explain = explain
    }
}

/// One item of a result: its attributes and the raw bytes of its absolute path (names
/// need not be valid UTF-8; `kMDItemPath` holds a readable rendering).
public struct ResultItem: Codable, Sendable, Equatable {
    public var attributes: [String: AttributeValue]
    public var rawPath: Data

    public init(attributes: [String: AttributeValue], rawPath: Data) {
        self.attributes = attributes
        self.rawPath = rawPath
    }
}

public struct QueryResponse: Codable, Sendable, Equatable {
    public var items: [ResultItem]
    public var explanation: String?

    public init(items: [ResultItem], explanation: String? = nil) {
        self.items = items
        self.explanation = explanation
    }
}

/// `POST /v1/item`: every attribute of one item (`ubq mdls`).
public struct ItemRequest: Codable, Sendable, Equatable {
    /// The item's absolute path, as raw bytes.
    public var rawPath: Data

    public init(rawPath: Data) {
        self.rawPath = rawPath
    }
}

/// The body of every non-2xx response.
public struct APIError: Codable, Sendable, Equatable, Error {
    public var error: String
    public var message: String
    /// For predicate parse errors: the character offset in the predicate.
    public var position: Int?

    public init(error: String, message: String, position: Int? = nil) {
        self.error = error
        self.message = message
        self.position = position
    }
}

/// What a line of a live query's stream says (NSMetadataQuery's gathering phase, then its
/// added / changed / removed updates; `removed` means deleted or no longer matching).
public enum LiveUpdateKind: String, Codable, Sendable, CaseIterable {
    case gathered, added, changed, removed
    /// Gathering is over (`count` items); updates follow. NSMetadataQueryDidFinishGathering.
    case finishedGathering = "finished-gathering"
    /// The daemon ended the stream (`reason` says why); no more lines follow.
    case closed
}
