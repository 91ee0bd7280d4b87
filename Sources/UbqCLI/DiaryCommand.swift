import ArgumentParser
import Diary
import Foundation
import KeyedArchive
import Ubiquity

/// `ubq diary`: the reference app's diary (`Documents/Diary.archive`, an NSKeyedArchiver
/// archive) read and changed through `DiaryDocument`, under file coordination. No daemon.
struct DiaryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diary",
        abstract: "Add, list, show, edit, remove and export diary entries (no daemon needed).",
        discussion: "The diary is Documents/\(DiaryDocument.fileName) of the default container, or of --container ID, or --file PATH. An entry is named by its id or any unique prefix of it.",
        subcommands: [Add.self, List.self, Show.self, Edit.self, Remove.self, Export.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add an entry; print its id.")

        @OptionGroup var options: DiaryOptions
        @Option(help: "The entry's title.") var title: String
        @Option(help: "The entry's text; - reads it from standard input.") var body: String = ""
        @Option(name: .customLong("tag"), help: "A tag (repeat for several).") var tags: [String] = []
        @Flag(help: "Print the new entry as JSON.") var json = false

        func run() async throws {
            try await DiaryStore.reportingErrors {
                let text = body == "-" ? String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self) : body
                let entry = try await options.store().modify { $0.addEntry(title: title, body: text, tags: tags) }
                if json { try Output.json(DiaryEntryJSON(entry)) } else { Output.line(entry.id) }
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the entries (oldest first).")

        @OptionGroup var options: DiaryOptions
        @Flag(help: "Print a JSON array of entries (ISO 8601 dates).") var json = false

        func run() async throws {
            try await DiaryStore.reportingErrors {
                let document = try await options.store().read()
                let entries = DiaryRendering.chronological(document.entries)
                if json {
                    try Output.json(entries.map(DiaryEntryJSON.init))
                } else if document.entries.isEmpty {
                    Output.line(Table.terminalSafe("no entries in \(document.fileURL.path)"))
                } else {
                    Output.line(DiaryRendering.table(entries))
                }
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show one entry.")

        @OptionGroup var options: DiaryOptions
        @Argument(help: "The entry's id, or a unique prefix of it.") var id: String
        @Flag(help: "Print the entry as JSON.") var json = false

        func run() async throws {
            try await DiaryStore.reportingErrors {
                let entry = try DiaryStore.entry(id, in: try await options.store().read())
                if json { try Output.json(DiaryEntryJSON(entry)) } else { Output.line(DiaryRendering.details(entry)) }
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove one entry.")

        @OptionGroup var options: DiaryOptions
        @Argument(help: "The entry's id, or a unique prefix of it.") var id: String

        func run() async throws {
            try await DiaryStore.reportingErrors {
                let removed = try await options.store().modify { document in
                    let entry = try DiaryStore.entry(id, in: document)
                    return document.remove(id: entry.id)
                }
                Output.line(Table.terminalSafe("removed \(removed?.id ?? id)"))
            }
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print every entry as Markdown (or JSON).")

        @OptionGroup var options: DiaryOptions
        @Flag(help: "Print a JSON array of entries instead of Markdown.") var json = false

        func run() async throws {
            try await DiaryStore.reportingErrors {
                let document = try await options.store().read()
                let entries = DiaryRendering.chronological(document.entries)
                if json {
                    try Output.json(entries.map(DiaryEntryJSON.init))
                } else {
                    // Raw into a file or a pipe, which is what an export is for; escaped on a
                    // terminal, as `show` does: an entry synced from elsewhere could act on it.
                    let markdown = DiaryRendering.markdown(entries)
                    Output.line(isatty(STDOUT_FILENO) == 1 ? Table.terminalSafe(markdown, keepingLayout: true) : markdown)
                }
            }
        }
    }
}
