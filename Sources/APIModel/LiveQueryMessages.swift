/// `POST /v1/watch`: a live query (NSMetadataQuery after `start()`). Every field is
/// optional, so `curl -d '{}'` watches every item of the documents scope.
public struct WatchRequest: Codable, Sendable, Equatable {
    public var predicate: String?
    public var containers: [String]?
    public var scope: SearchScope?
    /// The order of the gathered items; updates come in the order they happen.
    public var sort: [SortKey]?
    public var attributes: [String]?
    /// Seconds over which updates are coalesced, one line per item for its net change
    /// (NSMetadataQuery's `notificationBatchingInterval`). 0 or absent: each batch of index
    /// changes is sent as soon as it is applied.
    public var batchInterval: Double?

    public init(predicate: String? = nil, containers: [String]? = nil, scope: SearchScope? = nil, sort: [SortKey]? = nil, attributes: [String]? = nil, batchInterval: Double? = nil) {
        self.predicate = predicate
        self.containers = containers
        self.scope = scope
        self.sort = sort
        self.attributes = attributes
        self.batchInterval = batchInterval
    }

    /// The gathering query: synced, like `ubq ls`, and without a limit.
    public var query: QueryRequest {
        QueryRequest(predicate: predicate, containers: containers, scope: scope ?? .documents, sort: sort ?? [], attributes: attributes, sync: true)
    }
}

/// One line of a live query's stream (NDJSON): an item with what happened to it, the end
/// of gathering with the number of items gathered, or the end of the stream.
public struct LiveQueryLine: Codable, Sendable, Equatable {
    public var kind: LiveUpdateKind
    public var item: ResultItem?
    public var count: Int?
    public var reason: String?

    public init(kind: LiveUpdateKind, item: ResultItem? = nil, count: Int? = nil, reason: String? = nil) {
        self.kind = kind
        self.item = item
        self.count = count
        self.reason = reason
    }
}

/// Merges the updates of one batching interval so that each item (by `key`, its path)
/// appears once, with the kind its net change means to a client that saw the state at
/// the start of the interval: added then changed is added, added then removed is nothing,
/// removed then added is changed. Keeps the order in which items first changed.
public struct UpdateCoalescer<Item> {
    private var order: [[UInt8]] = []
    private var entries: [[UInt8]: (kind: LiveUpdateKind, item: Item)] = [:]

    public init() {}

    public var isEmpty: Bool { entries.isEmpty }

    public mutating func add(_ kind: LiveUpdateKind, key: [UInt8], item: Item) {
        guard let earlier = entries[key] else {
            order.append(key)
            entries[key] = (kind, item)
            return
        }
        entries[key] = Self.net(earlier.kind, then: kind).map { ($0, item) }
    }

    /// The merged updates, in order; empties the coalescer.
    public mutating func take() -> [(kind: LiveUpdateKind, item: Item)] {
        defer {
            order = []
            entries = [:]
        }
        var seen = Set<[UInt8]>()
        return order.compactMap { key in seen.insert(key).inserted ? entries[key] : nil }
    }

    /// nil: the two cancel out.
    static func net(_ first: LiveUpdateKind, then second: LiveUpdateKind) -> LiveUpdateKind? {
        switch (first, second) {
        case (.added, .removed): return nil
        case (.added, _): return .added
        case (.removed, .added), (.removed, .changed): return .changed
        default: return second
        }
    }
}
