import APIModel
import PredicateKit

/// A metadata query turned into SQL once: the predicate parsed (NSPredicate or Spotlight
/// syntax), its attribute aliases made canonical, checked against NSMetadataQuery's rules
/// and compiled with bound parameters, plus what must still run in memory.
public struct QueryPlan: Sendable {
    public var predicate: Predicate?
    public var compiled: CompiledQuery?
    public var request: QueryRequest
    /// Whether the query lists items or diary entries.
    public var subject: QuerySubject

    public init(_ request: QueryRequest, subject: QuerySubject = .items) throws(QueryPlanError) {
        self.request = request
        self.subject = subject
        try checkSortKeys(request.sort)
        guard let text = request.predicate, text.contains(where: { !$0.isWhitespace }) else { return }
        let parsed: Predicate
        do {
            parsed = try Predicate(query: text)
        } catch {
            throw QueryPlanError(kind: "parse", message: error.rendered(source: text), position: error.position)
        }
        let canonical = parsed.mapKeyPaths(MetadataAttribute.canonicalName)
        do {
            try canonical.validate(for: .metadataQuery(attributes: Set(subject.attributes.map(\.name))))
            compiled = try canonical.compile(for: subject.columns.schema)
        } catch let error as PredicateValidationError {
            throw QueryPlanError(kind: "predicate", message: "\(error)")
        } catch {
            throw QueryPlanError(kind: "predicate", message: "\(error)")
        }
        predicate = canonical
    }

    private func checkSortKeys(_ keys: [SortKey]) throws(QueryPlanError) {
        let columns = subject.columns
        for key in keys where columns.sortColumn(MetadataAttribute.canonicalName(key.attribute)) == nil {
            let sortable = subject.attributes.filter { columns.sortColumn($0.name) != nil }.map(\.name)
            throw QueryPlanError(kind: "sort", message: "cannot sort by \(key.attribute): sort by one of \(sortable.joined(separator: ", "))")
        }
    }

    /// Whether the answer depends on what is known only once a file's content is read
    /// (its sniffed type, its text, diary entries): such a query waits for the content
    /// the start-up scan left pending. The attributes it prints do not count: a listing
    /// may show a type its name gave that sniffing refines a moment later.
    public var dependsOnContent: Bool {
        if subject == .diaryEntries { return true }
        let keys = (predicate?.keyPaths ?? []).union(request.sort.map { MetadataAttribute.canonicalName($0.attribute) })
        return keys.contains { key in Self.contentAttributes.contains { key == $0 || key.hasPrefix($0 + ".") } }
    }

    private static let contentAttributes = [
        MetadataAttribute.textContent.name, MetadataAttribute.contentType.name, MetadataAttribute.contentTypeTree.name,
    ]

    /// The attributes each item of the answer carries.
    public var attributes: [String] {
        (request.attributes ?? subject.attributes.map(\.name)).map(MetadataAttribute.canonicalName)
    }
}

/// Why a query could not be planned; `kind` is "parse", "predicate" or "sort".
public struct QueryPlanError: Error, Sendable, CustomStringConvertible {
    public var kind: String
    public var message: String
    public var position: Int?

    public var description: String { message }
}
