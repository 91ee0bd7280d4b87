/// The `nska-json-v1` convention (see `shared/fixtures/keyedarchive/README.md`): rendering an
/// archive as JSON, and building an archive from such JSON. These are the entry points of
/// `ubq archive decode --json` and `ubq archive encode`.
public enum ArchiveJSON {
    public static let convention = "nska-json-v1"

    /// The JSON text for an archive. Never throws: a damaged archive gives a document whose
    /// `error` names what is wrong, as the `expected/` files of broken archives do.
    ///
    /// `sha256` is the lower-case hex SHA-256 of `archiveBytes`, written as the convention's
    /// `sha256` field. The caller computes it: this target stays free of dependencies, and a
    /// hash belongs with whoever read the file. Without it the field is left out.
    public static func render(archiveBytes: [UInt8], fileName: String, sha256: String? = nil,
                              limits: DecodingLimits = .standard) -> String {
        document(archiveBytes: archiveBytes, fileName: fileName, sha256: sha256, limits: limits).serialized(indent: 1) + "\n"
    }

    /// The same document as a `JSONValue` (for comparisons in tests).
    public static func document(archiveBytes: [UInt8], fileName: String, sha256: String? = nil,
                                limits: DecodingLimits = .standard) -> JSONValue {
        let header: [(String, JSONValue)] = [("file", .string(fileName))]
            + (sha256.map { [("sha256", JSONValue.string($0))] } ?? [])
            + [
                ("size", .integer(Int64(archiveBytes.count))),
                ("plist_format", .string(PropertyList.formatName(of: archiveBytes))),
            ]
        do {
            return .object(header + (try body(archiveBytes, limits: limits)) + [("error", .null)])
        } catch {
            return .object(header + [("error", .string(error.description))])
        }
    }

    private static func body(_ bytes: [UInt8], limits: DecodingLimits) throws(ArchiveError) -> [(String, JSONValue)] {
        let plist = try PropertyList.decode(bytes, limits: limits)
        let graph = try KeyedUnarchiver.decode(plist: plist)
        var renderer = GraphRenderer(graph: graph, limits: limits)
        let (top, shared) = try renderer.render()
        guard case .array(let objects)? = plist["$objects"] else { throw .invalid("missing/invalid $objects") }
        return [
            ("convention", .string(convention)),
            ("archiver", .string(KeyedUnarchiver.archiverName)),
            ("version", .integer(KeyedUnarchiver.archiveVersion)),
            ("object_count", .integer(Int64(objects.count))),
            ("top_keys", .array(graph.top.map { .string($0.key) })),
            ("top", top),
            ("shared", shared),
        ]
    }

    /// Renders the `top` and `shared` parts for a graph (what a decoder built in memory).
    public static func render(graph: ObjectGraph, limits: DecodingLimits = .standard) throws(ArchiveError) -> (top: JSONValue, shared: JSONValue) {
        var renderer = GraphRenderer(graph: graph, limits: limits)
        return try renderer.render()
    }

    /// Builds archive bytes from a JSON document in the convention (its `top` and `shared`
    /// members; or, if it has no `top`, the whole document is taken as the `top` object).
    public static func archive(fromJSON text: String, format: PlistFormat = .binary) throws(ArchiveError) -> [UInt8] {
        try KeyedArchiver.encode(try graph(fromJSON: try JSONParser.parse(text)), format: format)
    }

    /// The object graph described by a JSON document in the convention.
    public static func graph(fromJSON document: JSONValue) throws(ArchiveError) -> ObjectGraph {
        if let error = document["error"], case .string(let message) = error {
            throw ArchiveError(.invalidJSON, "the JSON describes an archive that failed to decode: \(message)")
        }
        let topValue = document["top"] ?? document
        guard case .object(let members) = topValue else { throw ArchiveError(.invalidJSON, "'top' is not a JSON object") }
        var builder = try GraphBuilder(shared: document["shared"])
        for (key, value) in members {
            builder.graph.top.append((key: key, value: try builder.value(value, path: "/top/" + GraphRenderer.pointerEscape(key), depth: 0)))
        }
        return builder.graph
    }
}
