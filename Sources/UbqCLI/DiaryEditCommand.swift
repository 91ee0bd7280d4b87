import ArgumentParser
import Diary
import Foundation
import KeyedArchive
import Ubiquity

extension DiaryCommand {
    /// `ubq diary edit ID`: the entry as text in `$EDITOR` (else `$VISUAL`, else `vi`), saved
    /// back when the editor exits with status 0. The diary is not claimed while the editor
    /// runs; if another program saves meanwhile, the edit is applied to that version.
    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Edit an entry in $EDITOR (title line, Tags: line, blank line, body).")

        @OptionGroup var options: DiaryOptions
        @Argument(help: "The entry's id, or a unique prefix of it.") var id: String

        func run() async throws {
            try await DiaryStore.reportingErrors {
                let store = try options.store()
                let entry = try DiaryStore.entry(id, in: try await store.read())
                let original = EditableEntry(entry)
                let edited = EditableEntry(parsing: try Self.runEditor(on: original.text, name: entry.id))
                guard edited != original else {
                    Output.line(Table.terminalSafe("no changes to \(entry.id)"))
                    return
                }
                try await store.modify { document in
                    let current = try DiaryStore.entry(entry.id, in: document)
                    document.update(edited.applied(to: current, at: ReferenceDate(Date())))
                }
                Output.line(Table.terminalSafe("saved \(entry.id)"))
            }
        }

        /// Writes `text` to a private temporary file, runs the editor on it and returns what it holds after.
        static func runEditor(on text: String, name: String) throws -> String {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-diary-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("\(name).txt")
            try Data(text.utf8).write(to: file)
            let environment = ProcessInfo.processInfo.environment
            let editor = [environment["EDITOR"], environment["VISUAL"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", editor + " \"$@\"", "ubq-editor", file.path]  // EDITOR may hold arguments
            do {
                try process.run()
            } catch {
                throw DiaryCommandError("cannot run the editor '\(editor)': \(error.localizedDescription) (set EDITOR)")
            }
            process.waitUntilExit()
            guard process.terminationReason == .exit, process.terminationStatus == 0 else {
                throw DiaryCommandError("the editor '\(editor)' exited with status \(process.terminationStatus): nothing saved")
            }
            do {
                return try String(contentsOf: file, encoding: .utf8)
            } catch {
                throw DiaryCommandError("cannot read back \(file.path) after editing: \(error.localizedDescription)")
            }
        }
    }
}
