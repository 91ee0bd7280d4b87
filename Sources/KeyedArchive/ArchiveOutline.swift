/// A readable outline of an archive for people (`ubq archive decode FILE` without `--json`):
/// one line per value, indented by depth. Each object is expanded once and marked `#uid`;
/// later references to it (shared objects, cycles) print `→ #uid`, so the outline stays as
/// small as the archive.
///
///     NSKeyedArchiver archive, binary, 23 objects, $top keys: root
///     root: NSDictionary #1 (4 entries)
///       "array": NSArray #6 (4 items)
///         [0] NSNull #7
///         [1] "hello"
public enum ArchiveOutline {
    public static func render(archiveBytes: [UInt8], limits: DecodingLimits = .standard) -> String {
        let format = PropertyList.formatName(of: archiveBytes)
        do {
            let plist = try PropertyList.decode(archiveBytes, limits: limits)
            let graph = try KeyedUnarchiver.decode(plist: plist)
            var outline = Outliner(graph: graph, maxDepth: limits.maxDepth)
            var text = "NSKeyedArchiver archive, \(format), \(objectCount(plist)) objects, $top keys: "
                + graph.top.map(\.key).joined(separator: ", ") + "\n"
            for (key, value) in graph.top { outline.line(key + ": ", value, depth: 0, into: &text) }
            return text
        } catch {
            return "error: \(error.description)\n"
        }
    }

    private static func objectCount(_ plist: PlistValue) -> Int {
        guard case .array(let objects)? = plist["$objects"] else { return 0 }
        return objects.count
    }
}

private struct Outliner {
    let graph: ObjectGraph
    let maxDepth: Int
    private var expanded: Set<Int> = []

    init(graph: ObjectGraph, maxDepth: Int) {
        self.graph = graph
        self.maxDepth = maxDepth
    }

    private func uid(_ ref: ObjectRef) -> Int {
        graph.sourceUIDs.indices.contains(ref.index) ? graph.sourceUIDs[ref.index] : ref.index + 1
    }

    mutating func line(_ label: String, _ value: ArchiveValue, depth: Int, into text: inout String) {
        let pad = String(repeating: "  ", count: depth)
        guard depth < maxDepth else { text += pad + label + "…\n"; return }
        switch value {
        case .null: text += pad + label + "nil\n"
        case .bool(let flag): text += pad + label + (flag ? "true" : "false") + "\n"
        case .integer(let number): text += pad + label + "\(number)\n"
        case .unsignedInteger(let number): text += pad + label + "\(number)\n"
        case .real(let number): text += pad + label + JSONWriter.realText(number) + "\n"
        case .string(let string): text += pad + label + Self.quoted(string) + "\n"
        case .data(let bytes): text += pad + label + "<\(bytes.count) bytes>\n"
        case .inlineArray(let items):
            text += pad + label + "(\(items.count) items)\n"
            for (index, item) in items.enumerated() { line("[\(index)] ", item, depth: depth + 1, into: &text) }
        case .object(let ref): object(label, ref, depth: depth, into: &text)
        }
    }

    private mutating func object(_ label: String, _ ref: ObjectRef, depth: Int, into text: inout String) {
        let pad = String(repeating: "  ", count: depth)
        let object = graph[ref]
        let name = ClassEncoding.archiveClass(of: object).name
        guard expanded.insert(ref.index).inserted else {
            text += pad + label + "→ #\(uid(ref)) (\(name))\n"
            return
        }
        let head = pad + label + name + " #\(uid(ref))"
        switch object {
        case .string(let value, _): text += head + " " + Self.quoted(value) + "\n"
        case .data(let bytes, _): text += head + " <\(bytes.count) bytes>\n"
        case .date(let seconds): text += head + " " + ReferenceDate(secondsSince2001: seconds).iso8601Microseconds + "\n"
        case .null: text += head + "\n"
        case .uuid(let bytes): text += head + " " + GraphRenderer.uuidText(bytes) + "\n"
        case .url(let base, let relative):
            text += head + " " + Self.quoted(relative) + "\n"
            if base != .null { line("base: ", base, depth: depth + 1, into: &text) }
        case .array(let items, _), .set(let items, _), .orderedSet(let items, _, _):
            text += head + " (\(items.count) items)\n"
            for (index, item) in items.enumerated() { line("[\(index)] ", item, depth: depth + 1, into: &text) }
        case .countedSet(let elements):
            text += head + " (\(elements.count) distinct)\n"
            for element in elements { line("×\(element.count) ", element.element, depth: depth + 1, into: &text) }
        case .dictionary(let pairs, _):
            text += head + " (\(pairs.count) entries)\n"
            for pair in pairs { line(keyLabel(pair.key) + ": ", pair.value, depth: depth + 1, into: &text) }
        case .generic(_, let fields):
            text += head + " (\(fields.count) fields)\n"
            for field in fields { line(field.key + ": ", field.value, depth: depth + 1, into: &text) }
        }
    }

    private func keyLabel(_ key: ArchiveValue) -> String {
        switch key {
        case .string(let text): Self.quoted(text)
        case .integer(let number): "\(number)"
        case .object(let ref): "#\(uid(ref))"
        default: "\(key)"
        }
    }

    /// A string in quotes, cut at 200 characters so a long body does not flood the terminal.
    static func quoted(_ text: String) -> String {
        let shown = text.count > 200 ? String(text.prefix(200)) + "…" : text
        var out = ""
        JSONWriter.writeString(shown, to: &out)
        return out
    }
}
