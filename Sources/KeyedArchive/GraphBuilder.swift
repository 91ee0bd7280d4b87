/// Builds an `ObjectGraph` from `nska-json-v1` values. The `shared` list is what restores
/// identity: every path of one entry gets the same object, and `{"$ref": uid}` refers to the
/// object expanded at that entry's first path (the enclosing object of a cycle).
struct GraphBuilder {
    var graph = ObjectGraph()
    private var uidAtPath: [String: Int] = [:]
    private var classOfUID: [Int: String] = [:]
    private var refForUID: [Int: ObjectRef] = [:]
    private let maxDepth = 512

    init(shared: JSONValue?) throws(ArchiveError) {
        guard case .array(let entries)? = shared else { return }
        for entry in entries {
            guard case .integer(let uid)? = entry["uid"], case .array(let paths)? = entry["paths"] else {
                throw ArchiveError(.invalidJSON, "a 'shared' entry needs an integer 'uid' and an array 'paths'")
            }
            for case .string(let path) in paths { uidAtPath[path] = Int(uid) }
            if case .string(let name)? = entry["class"] { classOfUID[Int(uid)] = name }
        }
    }

    private func fail(_ path: String, _ problem: String) -> ArchiveError {
        ArchiveError(.invalidJSON, "at \(path): \(problem)")
    }

    mutating func value(_ json: JSONValue, path: String, depth: Int) throws(ArchiveError) -> ArchiveValue {
        guard depth < maxDepth else { throw fail(path, "nested deeper than \(maxDepth)") }
        if let uid = uidAtPath[path] { return .object(try sharedObject(json, uid: uid, path: path, depth: depth)) }
        switch json {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return .integer(number)
        case .unsignedInteger(let number): return .unsignedInteger(number)
        case .real(let number): return .real(number)
        case .string(let text): return .string(text)
        case .array, .object: break
        }
        if case .object(let members) = json, members.count == 1 {
            switch members[0].0 {
            case "$data": return .data(try bytes(members[0].1, path: path))
            case "$real": return .real(try nonFinite(members[0].1, path: path))
            case "$ref":
                guard case .integer(let uid) = members[0].1, let ref = refForUID[Int(uid)] else {
                    throw fail(path, "$ref to a UID that no enclosing shared object has")
                }
                return .object(ref)
            default: break
            }
        }
        return .object(try object(json, path: path, depth: depth))
    }

    private mutating func object(_ json: JSONValue, path: String, depth: Int) throws(ArchiveError) -> ObjectRef {
        let ref = graph.reserve()
        graph[ref] = try content(json, path: path, depth: depth)
        return ref
    }

    /// The one node of a `shared` entry, built at its first path and reused at the others.
    /// Strings and data are objects here (they had a `$class` to be listed), and the listed
    /// class restores mutability, which the JSON tree itself does not show.
    private mutating func sharedObject(_ json: JSONValue, uid: Int, path: String, depth: Int) throws(ArchiveError) -> ObjectRef {
        if let ref = refForUID[uid] { return ref }
        let ref = graph.reserve()
        refForUID[uid] = ref
        let mutable = classOfUID[uid]?.hasPrefix("NSMutable") ?? false
        switch json {
        case .string(let text): graph[ref] = .string(text, mutable: mutable)
        case .object(let members) where members.count == 1 && members[0].0 == "$data":
            graph[ref] = .data(try bytes(members[0].1, path: path), mutable: mutable)
        default: graph[ref] = Self.withMutability(try content(json, path: path, depth: depth), mutable)
        }
        return ref
    }

    private static func withMutability(_ object: ArchivedObject, _ mutable: Bool) -> ArchivedObject {
        switch object {
        case .array(let items, _): .array(items, mutable: mutable)
        case .set(let items, _): .set(items, mutable: mutable)
        case .dictionary(let pairs, _): .dictionary(pairs, mutable: mutable)
        case .orderedSet(let items, _, let indexed): .orderedSet(items, mutable: mutable, indexedKeys: indexed)
        default: object
        }
    }

    private mutating func items(_ json: JSONValue?, path: String, depth: Int) throws(ArchiveError) -> [ArchiveValue] {
        guard case .array(let list)? = json else { throw fail(path, "expected an array") }
        var out = [ArchiveValue]()
        for (index, item) in list.enumerated() { out.append(try value(item, path: path + "/\(index)", depth: depth + 1)) }
        return out
    }

    private mutating func content(_ json: JSONValue, path: String, depth: Int) throws(ArchiveError) -> ArchivedObject {
        guard case .object(let members) = json else { return .array(try items(json, path: path, depth: depth), mutable: false) }
        let keys = Set(members.map(\.0))
        if keys == ["$date", "$iso"] || keys == ["$date"] {
            guard let seconds = json["$date"] else { throw fail(path, "missing $date") }
            switch seconds {
            case .real(let number): return .date(number)
            case .integer(let number): return .date(Double(number))
            default: return .date(try nonFinite(seconds["$real"] ?? .null, path: path))
            }
        }
        guard keys.count == 1 || keys == ["$class", "$classes", "$fields"] else { return try dictionary(members, path: path, depth: depth) }
        switch members[0].0 {
        case "$set": return .set(try items(json["$set"], path: path + "/$set", depth: depth), mutable: false)
        case "$orderedSet":
            return .orderedSet(try items(json["$orderedSet"], path: path + "/$orderedSet", depth: depth), mutable: false, indexedKeys: false)
        case "$countedSet": return .countedSet(try counted(json["$countedSet"], path: path, depth: depth))
        case "$dictPairs": return .dictionary(try pairs(json["$dictPairs"], path: path, depth: depth), mutable: false)
        case "$nsnull": return .null
        case "$uuid": return .uuid(try uuid(json["$uuid"], path: path))
        case "$url": return try url(json["$url"], path: path, depth: depth)
        case "$class", "$classes", "$fields": return try generic(json, path: path, depth: depth)
        default: return try dictionary(members, path: path, depth: depth)
        }
    }

    private mutating func dictionary(_ members: [(String, JSONValue)], path: String, depth: Int) throws(ArchiveError) -> ArchivedObject {
        var pairs = [ArchivePair]()
        for (key, item) in members {
            // The convention writes a stored key `$x` as `$$x`; undo that one `$`.
            let stored = key.hasPrefix("$$") ? String(key.dropFirst()) : key
            guard !stored.hasPrefix("$") || key.hasPrefix("$$") else { throw fail(path, "unknown marker key '\(key)'") }
            pairs.append(ArchivePair(key: .string(stored), value: try value(item, path: path + "/" + GraphRenderer.pointerEscape(key), depth: depth + 1)))
        }
        return .dictionary(pairs, mutable: false)
    }

    private mutating func pairs(_ json: JSONValue?, path: String, depth: Int) throws(ArchiveError) -> [ArchivePair] {
        guard case .array(let list)? = json else { throw fail(path, "$dictPairs is not an array") }
        var out = [ArchivePair]()
        for (index, pair) in list.enumerated() {
            guard case .array(let parts) = pair, parts.count == 2 else { throw fail(path, "$dictPairs item \(index) is not a [key, value] pair") }
            let base = path + "/$dictPairs/\(index)"
            out.append(ArchivePair(key: try value(parts[0], path: base + "/0", depth: depth + 1), value: try value(parts[1], path: base + "/1", depth: depth + 1)))
        }
        return out
    }

    private mutating func counted(_ json: JSONValue?, path: String, depth: Int) throws(ArchiveError) -> [CountedElement] {
        guard case .array(let list)? = json else { throw fail(path, "$countedSet is not an array") }
        var out = [CountedElement]()
        for (index, pair) in list.enumerated() {
            guard case .array(let parts) = pair, parts.count == 2, case .integer(let count) = parts[1] else {
                throw fail(path, "$countedSet item \(index) is not an [element, count] pair")
            }
            out.append(CountedElement(element: try value(parts[0], path: path + "/$countedSet/\(index)/0", depth: depth + 1), count: count))
        }
        return out
    }

    private mutating func url(_ json: JSONValue?, path: String, depth: Int) throws(ArchiveError) -> ArchivedObject {
        guard case .string(let relative)? = json?["relative"] else { throw fail(path, "$url needs a string 'relative'") }
        let base = try value(json?["base"] ?? .null, path: path + "/$url/base", depth: depth + 1)
        return .url(base: base, relative: relative)
    }

    private mutating func generic(_ json: JSONValue, path: String, depth: Int) throws(ArchiveError) -> ArchivedObject {
        guard case .string(let name)? = json["$class"], case .array(let chainJSON)? = json["$classes"],
              case .object(let members)? = json["$fields"] else { throw fail(path, "an object needs $class, $classes and $fields") }
        let chain = chainJSON.compactMap { item -> String? in if case .string(let text) = item { return text } else { return nil } }
        var fields = [ArchiveField]()
        for (key, item) in members {
            fields.append(ArchiveField(key: key, value: try fieldValue(item, path: path + "/$fields/" + GraphRenderer.pointerEscape(key), depth: depth + 1)))
        }
        return .generic(ArchiveClass(name: name, chain: chain), fields: fields)
    }

    /// A field holding a JSON array is an inline array of UIDs, as the convention renders it.
    private mutating func fieldValue(_ json: JSONValue, path: String, depth: Int) throws(ArchiveError) -> ArchiveValue {
        guard case .array = json, uidAtPath[path] == nil else { return try value(json, path: path, depth: depth) }
        return .inlineArray(try items(json, path: path, depth: depth))
    }

    private func bytes(_ json: JSONValue, path: String) throws(ArchiveError) -> [UInt8] {
        guard case .string(let text) = json, let bytes = Base64.decode(text) else { throw fail(path, "$data is not base64 text") }
        return bytes
    }

    private func uuid(_ json: JSONValue?, path: String) throws(ArchiveError) -> [UInt8] {
        guard case .string(let text)? = json else { throw fail(path, "$uuid is not a string") }
        let hex = Array(text.filter { $0 != "-" })
        var out = [UInt8]()
        for index in stride(from: 0, to: hex.count - 1, by: 2) {
            guard let byte = UInt8(String(hex[index...(index + 1)]), radix: 16) else { break }
            out.append(byte)
        }
        guard out.count == 16, hex.count == 32 else { throw fail(path, "'\(text)' is not a UUID") }
        return out
    }

    private func nonFinite(_ json: JSONValue, path: String) throws(ArchiveError) -> Double {
        switch json {
        case .string("nan"): return .nan
        case .string("inf"), .string("+inf"): return .infinity
        case .string("-inf"): return -.infinity
        default: throw fail(path, "$real must be \"nan\", \"inf\" or \"-inf\"")
        }
    }
}
