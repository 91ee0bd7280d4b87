import Diary
import Foundation
import KeyedArchive
import Testing
@testable import Ubiquity

/// A fresh folder for one test: `Documents/` for the files and `locks/` for the coordinator.
struct DocumentSandbox: ~Copyable {
    let root: URL
    let documents: URL
    let locks: URL
    let coordinator: FileCoordinator

    init(timeout: Duration? = .seconds(30)) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-document-\(UUID().uuidString.prefix(8))")
        documents = root.appendingPathComponent("Documents")
        locks = root.appendingPathComponent("locks")
        try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
        coordinator = try FileCoordinator(lockDirectory: locks, timeout: timeout)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    var diaryURL: URL { DiaryDocument.url(inDocuments: documents) }

    func diary(at url: URL? = nil, coordinator: FileCoordinator? = nil) -> DiaryDocument {
        DiaryDocument(fileURL: url ?? diaryURL, coordinator: coordinator ?? self.coordinator)
    }

    /// Writes a diary of `entries` at `url` through a document, and returns the file's bytes.
    @discardableResult
    func writeDiary(_ entries: [DiaryEntry], at url: URL? = nil) async throws -> Data {
        let document = diary(at: url)
        document.replaceEntries(entries)
        try await document.save(to: url ?? diaryURL, for: .forCreating)
        try await document.close()
        return try Data(contentsOf: url ?? diaryURL)
    }

    /// The names in `folder` (to check no temporary file is left behind).
    func names(in folder: URL? = nil) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: (folder ?? documents).path).sorted()
    }
}

enum Samples {
    static let first = DiaryEntry(
        id: "11111111-1111-4111-8111-111111111111", title: "First", body: "One.\nTwo.",
        created: ReferenceDate(secondsSince2001: 785_000_000.25), modified: ReferenceDate(secondsSince2001: 785_000_100.5),
        tags: ["home"], attachment: "photo.jpg")
    static let second = DiaryEntry(
        id: "22222222-2222-4222-8222-222222222222", title: "Zweiter — ß, 日本, 🎉", body: "",
        created: ReferenceDate(secondsSince2001: 0), modified: ReferenceDate(secondsSince2001: -1.5))
    static let third = DiaryEntry(
        id: "33333333-3333-4333-8333-333333333333", title: "$dollar", body: String(repeating: "lorem ", count: 200),
        created: ReferenceDate(secondsSince2001: 1e9), modified: ReferenceDate(secondsSince2001: 1e9), tags: ["a", "b"])
}

/// Where the helper executables were built: beside the test bundle (honours `--scratch-path`).
enum BuiltProducts {
    static func url(_ name: String) -> URL {
        var folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/" + name)
    }
}
