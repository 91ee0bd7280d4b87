import Foundation
import KeyedArchive
import Testing

/// Archives we write are read by independent decoders with the same values and number types:
/// Python's plistlib (plist layer), bpylist2, nskeyedunarchiver, and Foundation on Linux.
/// Graphs here are acyclic and use the classes every one of them knows (the Python readers
/// recurse forever on cycles and refuse unknown classes).
@Suite struct InteropTests {
    static let seeds: [UInt64] = Array(1...40)
    static let options = RandomGraph.Options(sharing: true, cycles: false, allClasses: false)

    static func cases(format: PlistFormat) throws -> [InteropSupport.Case] {
        try seeds.map { seed in
            let graph = RandomGraph.make(seed: seed, options: options)
            let bytes = try KeyedArchiver.encode(graph, format: format)
            return InteropSupport.Case(bytes: bytes, key: "root", expected: TypedJSON.of(graph.top[0].value, in: graph))
        }
    }

    @Test(arguments: ["plistlib", "bpylist2", "nskeyedunarchiver"])
    func pythonReadersDecodeOurBinaryArchives(library: String) throws {
        let failure = try InteropSupport.check(library: library, cases: try Self.cases(format: .binary))
        #expect(failure == nil, "\(failure ?? "")")
    }

    /// plistlib leaves XML `CF$UID` dictionaries as they are (our helper resolves them, as
    /// CoreFoundation does); bpylist2 and nskeyedunarchiver do not, so they read binary only.
    @Test(arguments: ["plistlib"])
    func pythonReadersDecodeOurXMLArchives(library: String) throws {
        let failure = try InteropSupport.check(library: library, cases: try Self.cases(format: .xml))
        #expect(failure == nil, "\(failure ?? "")")
    }

    @Test(arguments: [PlistFormat.binary, .xml])
    func foundationDecodesOurArchivesWithTheSameTypes(format: PlistFormat) throws {
        var cases = [InteropSupport.Case]()
        for seed in Self.seeds {
            let graph = RandomGraph.make(seed: seed, options: Self.options)
            let decoded = try FoundationTyped.decode(try KeyedArchiver.encode(graph, format: format), key: "root")
            let text = decoded.serialized(indent: 0)
            cases.append(InteropSupport.Case(bytes: Array(text.utf8), key: "root", expected: TypedJSON.of(graph.top[0].value, in: graph), fileExtension: "json"))
        }
        let failure = try InteropSupport.check(library: "typedjson", cases: cases)
        #expect(failure == nil, "\(failure ?? "")")
    }

    @Test func aMismatchIsReported() throws {
        let graph = RandomGraph.make(seed: 7, options: Self.options)
        let wrong = InteropSupport.Case(bytes: try KeyedArchiver.encode(graph), key: "root", expected: .object([("int", .integer(424_242))]))
        let failure = try InteropSupport.check(library: "plistlib", cases: [wrong])
        #expect(failure?.contains("424242") == true, "\(failure ?? "no failure")")
    }
}
