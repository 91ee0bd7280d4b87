import KeyedArchive
import Testing

/// The Codable bridge and the NSCoding-like protocol.
@Suite struct CodingBridgeTests {
    struct Sample: Codable, Equatable {
        var flag: Bool
        var zero: Double
        var count: Int
        var name: String
        var when: ReferenceDate
        var tags: [String]
        var nested: [String: Int]
        var missing: String?
    }

    static let sample = Sample(flag: true, zero: 0.0, count: 1, name: "n", when: ReferenceDate(secondsSince2001: 12.5),
                               tags: ["a", "b"], nested: ["$x": 3], missing: nil)

    static func roundTrip<T: Codable>(_ value: T, asClass: ArchiveClass? = nil, format: PlistFormat = .binary) throws -> (T, ObjectGraph) {
        var graph = ObjectGraph()
        graph.top = [(key: "root", value: try ArchiveEncoder().encode(value, into: &graph, asClass: asClass))]
        let decoded = try KeyedUnarchiver.decode(try KeyedArchiver.encode(graph, format: format))
        return (try ArchiveDecoder().decode(T.self, from: decoded.topValue("root") ?? .null, in: decoded), decoded)
    }

    @Test(arguments: [PlistFormat.binary, .xml])
    func codableValuesRoundTripAsDictionaries(format: PlistFormat) throws {
        let (back, graph) = try Self.roundTrip(Self.sample, format: format)
        #expect(back == Self.sample)
        guard case .dictionary(let pairs, _)? = graph.object(graph.topValue("root") ?? .null) else {
            Issue.record("not an NSDictionary")
            return
        }
        let values = Dictionary(uniqueKeysWithValues: pairs.compactMap { pair -> (String, ArchiveValue)? in
            if case .string(let key) = pair.key { return (key, pair.value) }
            return nil
        })
        #expect(values["flag"] == .bool(true))
        #expect(values["zero"] == .real(0))
        #expect(values["count"] == .integer(1))
        #expect(values["missing"] == nil)
        if case .date(12.5)? = graph.object(values["when"] ?? .null) {} else { Issue.record("when is not an NSDate") }
    }

    @Test func codableValuesArchiveAsANamedClass() throws {
        let (back, graph) = try Self.roundTrip(Self.sample, asClass: ArchiveClass(name: "Sample"))
        #expect(back == Self.sample)
        guard case .generic(let archiveClass, let fields)? = graph.object(graph.topValue("root") ?? .null) else {
            Issue.record("not a Sample object")
            return
        }
        #expect(archiveClass.chain == ["Sample", "NSObject"])
        #expect(fields.map(\.key).contains("flag"))
    }

    @Test func typesAreNotConvertedSilently() throws {
        struct Flag: Codable { var flag: Bool }
        struct Count: Codable { var flag: Int }
        var graph = ObjectGraph()
        let value = try ArchiveEncoder().encode(Count(flag: 1), into: &graph)
        #expect(throws: ArchiveError.self) { try ArchiveDecoder().decode(Flag.self, from: value, in: graph) }
    }

    final class Node: ArchiveCoding {
        static let archiveClass = ArchiveClass(name: "Node")
        var label: String
        var next: Node?

        init(label: String, next: Node? = nil) {
            self.label = label
            self.next = next
        }

        func encode(with coder: inout ArchiveFieldEncoder) throws(ArchiveError) {
            coder.encode(label, forKey: "$label")
            try coder.encode(next, forKey: "next")
        }

        init(from coder: ArchiveFieldDecoder) throws(ArchiveError) {
            label = try coder.decodeString(forKey: "$label")
            next = try coder.decodeObject(Node.self, forKey: "next")
        }
    }

    @Test func archiveCodingTypesEscapeDollarKeysAndShareInstances() throws {
        let shared = Node(label: "shared")
        var coder = ArchiveFieldEncoder()
        try coder.encode(Node(label: "a", next: shared), forKey: "first")
        try coder.encode(Node(label: "b", next: shared), forKey: "second")
        coder.encodeUnkeyed(.string("unkeyed"))
        let graph = try KeyedUnarchiver.decode(try coder.archiveBytes())
        #expect(graph.top.map(\.key) == ["first", "second", "$0"])
        let document = try ArchiveJSON.render(graph: graph)
        guard case .array(let shares) = document.shared else { return }
        #expect(shares.count == 1, "the shared Node is archived once: \(document.shared.serialized(indent: 0))")
        let first = try ArchiveFieldDecoder(top: graph).decodeObject(Node.self, forKey: "first")
        #expect(first?.label == "a" && first?.next?.label == "shared")
        guard case .generic(_, let fields)? = graph.object(graph.topValue("first") ?? .null) else { return }
        #expect(fields.map(\.key).contains("$$label"))
    }
}
