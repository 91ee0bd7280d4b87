// diary-example: the reference diary app's document life cycle, on the Ubiquity library.
//
//   diary-example [TITLE [BODY]]
//
// 1. Checks the ubiquity container is available (FileManager.url(forUbiquityContainerIdentifier:)).
// 2. Queries the container's documents (NSMetadataQuery); without ubqd it says so and goes on.
// 3. Opens Documents/Diary.archive with DiaryDocument (a UIDocument), or starts a new diary.
// 4. Adds an entry, saves for overwriting (or for creating, the first time), closes.
// 5. Remembers the entry added in the container's key-value store (NSUbiquitousKeyValueStore),
//    where the app on every device finds it: says which one the last run added.
//
// Settings come from the environment, as for ubqd and ubq (UBQ_ROOT, UBQ_RUNTIME_DIR, ...).
// Exit status 0 when the entry was saved, 1 otherwise (the message says why).
import Diary
import Foundation
import Ubiquity

/// Prints through C's stdio, which reports a failed write rather than trapping:
/// FileHandle's `write(_:)` traps when the reader went away (`diary-example | head -1`).
func say(_ line: String) {
    print(line)
}

struct ExampleFailure: Error, CustomStringConvertible {
    var description: String
}

/// 1. The container's Documents folder; no container means no ubiquity for this user yet.
func documentsFolder() throws -> URL {
    guard let container = try UbiquityContainer.url() else {
        throw ExampleFailure(description: "the ubiquity container is not available: start ubqd once (it creates it)")
    }
    say("container: \(container.path)")
    let documents = container.appendingPathComponent("Documents", isDirectory: true)
    try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
    return documents
}

/// 2. What the daemon has indexed; the app works without it.
func queryDocuments() async {
    do {
        let query = MetadataQuery(predicate: "kMDItemFSName == '\(DiaryDocument.fileName)'", scope: .documents)
        let items = try await query.results()
        say("query: \(items.count) diary document(s) indexed")
    } catch {
        say("query: skipped, ubqd is not running or not answering (\(error)); continuing")
    }
}

/// 3. Opens the diary if there is one: whether the save must create or overwrite.
func openOrStart(_ diary: DiaryDocument) async throws -> Document.SaveOperation {
    let operation: Document.SaveOperation
    do {
        try await diary.open()
        operation = .forOverwriting
    } catch {
        guard error.code == .fileNotFound else { throw error }
        operation = .forCreating
    }
    let what = operation == .forCreating ? "no diary yet: creating" : "opened with \(diary.entries.count) entries:"
    say("\(what) \(diary.fileURL.path)")
    return operation
}

func run(title: String, body: String) async throws {
    let documents = try documentsFolder()
    await queryDocuments()
    let url = DiaryDocument.url(inDocuments: documents)
    let diary = DiaryDocument(fileURL: url, coordinator: try UbiquityContainer.fileCoordinator(timeout: .seconds(30)))
    let operation = try await openOrStart(diary)
    let entry = diary.addEntry(title: title, body: body, tags: ["example"])
    do {
        try await diary.save(to: url, for: operation)
        try await diary.close()
    } catch {
        throw ExampleFailure(description: "\(error) (document state: \(diary.documentState))")
    }
    let how = operation == .forCreating ? "for creating" : "for overwriting"
    say("saved \(how): \(diary.entries.count) entries, added \(entry.id)")
    try await remember(entry)
}

/// 5. The last entry added, on any device, kept in the key-value store.
func remember(_ entry: DiaryEntry) async throws {
    let store = try await UbiquitousKeyValueStore.open()
    say("last added before: \(store.string(forKey: "lastEntryID") ?? "none")")
    try store.set(entry.id, forKey: "lastEntryID")
    try await store.synchronize()
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    try await run(title: arguments.first ?? "Hello from diary-example", body: arguments.dropFirst().first ?? "Written at \(Date()).")
} catch {
    FileHandle.standardError.write(Data("diary-example: \(error)\n".utf8))
    exit(1)
}
