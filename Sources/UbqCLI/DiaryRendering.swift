import Diary
import Foundation
import KeyedArchive
import Ubiquity

/// One entry in `ubq diary ... --json` output: dates as ISO 8601 strings (UTC, milliseconds).
struct DiaryEntryJSON: Encodable {
    var id: String
    var title: String
    var body: String
    var created: String
    var modified: String
    var tags: [String]
    var attachment: String?

    init(_ entry: DiaryEntry) {
        id = entry.id
        title = entry.title
        body = entry.body
        created = DiaryRendering.iso8601(entry.created)
        modified = DiaryRendering.iso8601(entry.modified)
        tags = entry.tags
        attachment = entry.attachment
    }
}

/// How `ubq diary` prints entries, and the text form `edit` hands to the editor.
enum DiaryRendering {
    static func iso8601(_ date: ReferenceDate) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date.date)
    }

    /// `entries` oldest first, as `list` and `export` print them; entries created at the
    /// same moment keep the file's order. The file's own order is the app's (new entries
    /// at the end), which a merge of two devices' additions interleaves: both devices'
    /// additions come after the entries they share, the winning device's first.
    static func chronological(_ entries: [DiaryEntry]) -> [DiaryEntry] {
        entries.enumerated().sorted { ($0.element.created, $0.offset) < ($1.element.created, $1.offset) }.map(\.element)
    }

    /// `ID  CREATED  TITLE  TAGS`, ids cut to 8 characters (a prefix `show` accepts).
    static func table(_ entries: [DiaryEntry]) -> String {
        let rows = entries.map { entry in
            [Table.terminalSafe(String(entry.id.prefix(8))), String(iso8601(entry.created).prefix(16)).replacingOccurrences(of: "T", with: " "),
             Table.terminalSafe(entry.title), Table.terminalSafe(entry.tags.joined(separator: ", "))]
        }
        return Table.render(header: ["ID", "CREATED (UTC)", "TITLE", "TAGS"], rows: rows)
    }

    /// The full entry for `show`: headers, a blank line, the body.
    static func details(_ entry: DiaryEntry) -> String {
        var lines = [
            Table.terminalSafe(entry.title), "id: \(Table.terminalSafe(entry.id))", "created: \(iso8601(entry.created))",
            "modified: \(iso8601(entry.modified))", "tags: \(Table.terminalSafe(entry.tags.joined(separator: ", ")))",
        ]
        if let attachment = entry.attachment { lines.append("attachment: \(Table.terminalSafe(attachment))") }
        return (lines + ["", Table.terminalSafe(entry.body, keepingLayout: true)]).joined(separator: "\n")
    }

    /// Every entry as one Markdown document, oldest first.
    static func markdown(_ entries: [DiaryEntry]) -> String {
        var text = "# Diary\n"
        for entry in entries {
            text += "\n## \(entry.title)\n\n"
            var facts = ["_\(iso8601(entry.created))_"]
            if !entry.tags.isEmpty { facts.append("tags: " + entry.tags.map { "`\($0)`" }.joined(separator: ", ")) }
            if let attachment = entry.attachment { facts.append("attachment: \(attachment)") }
            text += facts.joined(separator: " · ") + " <!-- id: \(entry.id) -->\n"
            if !entry.body.isEmpty { text += "\n" + entry.body + (entry.body.hasSuffix("\n") ? "" : "\n") }
        }
        return text
    }
}

/// The text `ubq diary edit` puts in the editor: the title line, a `Tags:` line, a blank
/// line, then the body.
struct EditableEntry: Equatable {
    var title: String
    var tags: [String]
    var body: String

    init(_ entry: DiaryEntry) {
        title = entry.title
        tags = entry.tags
        body = entry.body
    }

    var text: String {
        title + "\nTags: " + tags.joined(separator: ", ") + "\n\n" + body + "\n"
    }

    /// Reads the edited text back. The `Tags:` prefix may go; a missing blank line is
    /// tolerated; the one final newline the text form adds (or an editor adds) is dropped.
    init(parsing text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        title = lines.first ?? ""
        var tagLine = lines.count > 1 ? lines[1] : ""
        if tagLine.lowercased().hasPrefix("tags:") { tagLine = String(tagLine.dropFirst(5)) }
        tags = tagLine.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        var rest = Array(lines.dropFirst(2))
        if rest.first == "" { rest.removeFirst() }
        body = rest.joined(separator: "\n")
    }

    func applied(to entry: DiaryEntry, at now: ReferenceDate) -> DiaryEntry {
        var edited = entry
        edited.title = title
        edited.tags = tags
        edited.body = body
        edited.modified = now
        return edited
    }
}
