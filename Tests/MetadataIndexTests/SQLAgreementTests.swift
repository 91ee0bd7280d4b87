import APIModel
import Foundation
import MetadataIndex
import RawPaths
import Testing

/// The SQL compiler and the in-memory evaluator must agree on real SQLite: the cases of
/// PredicateKit's agreement corpus, run through the real index (schema, shadow columns,
/// FTS5, item_types), must select exactly the expected items.
@Suite struct SQLAgreementTests {
    struct Corpus: Decodable {
        var items: [[String: JSONValue]]
        var cases: [Case]
    }

    struct Case: Decodable {
        var predicate: String
        var expected: [Int]
    }

    /// The attributes the index takes from an item snapshot (the others it derives or
    /// keeps as sync state, so the corpus cannot set them).
    static let storedAttributes: Set<String> = [
        "kMDItemFSName", "kMDItemPath", "kMDItemURL", "kMDItemFSSize", "kMDItemFSCreationDate",
        "kMDItemFSContentChangeDate", "kMDItemContentType", "kMDItemContentTypeTree", "kMDItemTextContent",
    ]

    static func corpus() throws -> Corpus {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("PredicateKitTests/sql_agreement_cases.json")
        return try JSONDecoder().decode(Corpus.self, from: Data(contentsOf: url))
    }

    static func usable(_ predicate: String) -> Bool {
        let mentioned = Set(predicate.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init).filter { $0.hasPrefix("kMDItem") || $0.hasPrefix("NSMetadata") })
        // MATCHES is valid NSPredicate but not an NSMetadataQuery operator: the plan rejects it.
        return mentioned.isSubset(of: storedAttributes) && !predicate.contains("$time") && !predicate.lowercased().contains("now()")
            && !predicate.uppercased().contains("MATCHES")
    }

    static func snapshot(_ item: [String: JSONValue]) -> ItemSnapshot? {
        guard case .string(let path)? = item["kMDItemPath"], case .number(let size)? = item["kMDItemFSSize"] else { return nil }
        let absolute = RawPath(path)
        var snapshot = IndexFixture.item(String(path.dropFirst()), size: Int64(size))
        snapshot.absolutePath = absolute
        snapshot.relativePath = RawPath(String(path.dropFirst()))
        if case .date(let value)? = item["kMDItemFSCreationDate"] { snapshot.created = value }
        if case .date(let value)? = item["kMDItemFSContentChangeDate"] { snapshot.modified = value }
        if case .string(let value)? = item["kMDItemContentType"] { snapshot.contentType = value }
        if case .array(let values)? = item["kMDItemContentTypeTree"] { snapshot.contentTypeTree = values.compactMap { if case .string(let s) = $0 { s } else { nil } } }
        if case .string(let value)? = item["kMDItemTextContent"] { snapshot.textContent = value }
        return snapshot
    }

    @Test func compiledSQLSelectsWhatTheCorpusExpects() throws {
        let corpus = try Self.corpus()
        let fixture = try IndexFixture()
        defer { fixture.remove() }
        var nameByID: [Int: String] = [:]
        for item in corpus.items {
            guard case .number(let id)? = item["id"], case .string(let name)? = item["kMDItemFSName"], let snapshot = Self.snapshot(item) else { continue }
            nameByID[Int(id)] = name
            try fixture.index.apply([.upsert(snapshot)])
        }
        var ran = 0
        for testCase in corpus.cases where Self.usable(testCase.predicate) {
            // Key paths such as `kMDItemFSName.length` are NSPredicate, not NSMetadataQuery:
            // the plan rejects them, which QueryPlan's own tests cover.
            guard (try? QueryPlan(QueryRequest(predicate: testCase.predicate, scope: .all))) != nil else { continue }
            ran += 1
            let expected = testCase.expected.compactMap { nameByID[$0] }.sorted()
            let found = try fixture.query(testCase.predicate).sorted()
            #expect(found == expected, "\(testCase.predicate)")
        }
        #expect(ran >= 20, "only \(ran) agreement cases apply to the index's stored attributes")
    }
}

/// Just enough JSON to read the corpus, with the fixture convention {"$date": t}.
enum JSONValue: Decodable {
    case string(String), number(Double), bool(Bool), date(Double), array([JSONValue]), object([String: JSONValue]), null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else {
            let object = try container.decode([String: JSONValue].self)
            if case .number(let t)? = object["$date"] { self = .date(t) } else { self = .object(object) }
        }
    }
}
