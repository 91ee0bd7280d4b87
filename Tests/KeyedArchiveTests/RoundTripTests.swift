import KeyedArchive
import Testing

/// Seeded random graphs with sharing and cycles survive encode → decode, in both formats.
@Suite struct RoundTripTests {
    @Test(arguments: [PlistFormat.binary, .xml])
    func randomGraphsRoundTrip(format: PlistFormat) throws {
        for seed in UInt64(1)...300 {
            let graph = RandomGraph.make(seed: seed)
            let decoded = try KeyedUnarchiver.decode(try KeyedArchiver.encode(graph, format: format))
            let difference = GraphEquivalence.difference(graph, decoded)
            #expect(difference == nil, "seed \(seed): \(difference ?? "")")
        }
    }

    @Test func equivalenceNoticesLostSharing() throws {
        var graph = ObjectGraph()
        let shared = graph.add(.array([.integer(1)], mutable: false))
        graph.top = [(key: "root", value: graph.add(.array([shared, shared], mutable: false)))]
        var unshared = ObjectGraph()
        let first = unshared.add(.array([.integer(1)], mutable: false))
        let second = unshared.add(.array([.integer(1)], mutable: false))
        unshared.top = [(key: "root", value: unshared.add(.array([first, second], mutable: false)))]
        #expect(GraphEquivalence.difference(graph, unshared) != nil)
    }

    @Test(arguments: [PlistFormat.binary, .xml])
    func fixturesRoundTripThroughTheirJSON(format: PlistFormat) throws {
        for name in FixturePaths.archiveNames {
            let document = ArchiveJSON.document(archiveBytes: try FixturePaths.archiveBytes(name), fileName: name)
            guard document["error"] == .null else { continue }
            let rebuilt = try ArchiveJSON.archive(fromJSON: document.serialized(), format: format)
            let again = ArchiveJSON.document(archiveBytes: rebuilt, fileName: name)
            for field in ["top_keys", "top", "shared"] {
                let difference = JSONMatching.difference(Self.withoutUIDs(document[field] ?? .null), Self.withoutUIDs(again[field] ?? .null), path: field)
                #expect(difference == nil, "\(name) \(format): \(difference ?? "")")
            }
        }
    }

    /// UIDs depend on the writer's object order, so the comparison leaves them out.
    static func withoutUIDs(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let items): return .array(items.map(withoutUIDs))
        case .object(let members):
            return .object(members.compactMap { key, member in
                if key == "uid" { return nil }
                return (key, key == "$ref" ? .integer(0) : withoutUIDs(member))
            })
        default: return value
        }
    }
}
