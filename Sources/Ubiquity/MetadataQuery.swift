import APIModel
import DaemonClient
import Foundation

/// A metadata query over the containers, answered by `ubqd` (NSMetadataQuery's gathering
/// phase; live updates come with the daemon's streaming API).
public struct MetadataQuery: Sendable {
    /// An NSPredicate format string or a Spotlight query string; nil matches every item.
    public var predicate: String?
    public var scope: SearchScope = .documents
    public var sortKeys: [SortKey] = []
    /// Container ids to search; empty searches all.
    public var containers: [String] = []

    public init(predicate: String? = nil, scope: SearchScope = .documents, sortKeys: [SortKey] = [], containers: [String] = []) {
        self.predicate = predicate
        self.scope = scope
        self.sortKeys = sortKeys
        self.containers = containers
    }

    /// Runs the query and returns the matching items. Every change completed before the
    /// call is reflected.
    public func results(environment: [String: String] = ProcessInfo.processInfo.environment) async throws -> [MetadataItem] {
        let settings = try UbiquityContainer.currentSettings(environment: environment)
        let request = QueryRequest(predicate: predicate, containers: containers, scope: scope, sort: sortKeys)
        let response = try await DaemonClient(socketPath: settings.socketPath).post(Route.query, body: request, as: QueryResponse.self)
        return response.items.map(MetadataItem.init)
    }
}

/// One result: its attributes by name (`kMDItemFSName`, or the NSMetadata constant names).
public struct MetadataItem: Sendable, Equatable {
    public let attributes: [String: AttributeValue]
    /// The item's file URL. A name that is not UTF-8 shows U+FFFD in place of its bad bytes
    /// here: on Linux a `URL` cannot hold them, so two such names can share a URL, or name
    /// another file. `rawPath` keeps them.
    public let url: URL
    /// The item's path as the filesystem names it, byte for byte: what to open (`open(2)`)
    /// an item whose name is not UTF-8 with.
    public let rawPath: [UInt8]

    init(_ item: ResultItem) {
        attributes = item.attributes
        rawPath = [UInt8](item.rawPath)
        url = URL(fileURLWithPath: String(decoding: item.rawPath, as: UTF8.self))
    }

    public func value(forAttribute name: String) -> AttributeValue? {
        attributes[MetadataAttribute.canonicalName(name)]
    }
}
