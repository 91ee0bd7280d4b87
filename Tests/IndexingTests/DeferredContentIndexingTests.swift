import APIModel
import Diary
import Foundation
import GRDB
import Glibc
import KeyedArchive
import MetadataIndex
import RawPaths
import TestSupport
import Testing

@testable import Indexing

/// The start-up scan on real files: first names and status (no file opened), then the
/// content read by a `ContentReader`, as ubqd does before and after READY.
@Suite struct DeferredContentIndexingTests {
    final class Tree {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-deferred-\(UUID().uuidString.prefix(8))").path
        var documents: String { root + "/iCloud~org~ubiquity~Default/Documents" }
        let index: MetadataIndex
        let indexer: Indexer
        let (logger, messages) = RecordingLogHandler.logger()

        init() throws {
            try FileManager.default.createDirectory(atPath: root + "/iCloud~org~ubiquity~Default/Documents", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: root + "/state", withIntermediateDirectories: true)
            index = try MetadataIndex(path: root + "/state/index.sqlite", root: RawPath(root))
            indexer = try Indexer(root: RawPath(root), index: index, extraIgnorePatterns: [], logger: logger)
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        func write(_ name: String, _ bytes: [UInt8]) throws {
            try Data(bytes).write(to: URL(fileURLWithPath: documents + "/" + name))
        }

        func names(_ predicate: String) throws -> [String] {
            let plan = try QueryPlan(QueryRequest(predicate: predicate, scope: .all, attributes: ["kMDItemFSName"], sync: false))
            return try index.run(plan).items.compactMap {
                if case .string(let name)? = $0.attributes["kMDItemFSName"] { return name }
                return nil
            }.sorted()
        }
    }

    static let pdf = Array("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n".utf8)

    func fill(_ tree: Tree) throws {
        let reader = try ContentReader(root: RawPath(tree.root), logger: tree.logger)
        var pending = try tree.index.pendingContent(after: 0, limit: 500)
        while let last = pending.last {
            try tree.indexer.fillContent(reader.read(pending))
            pending = try tree.index.pendingContent(after: last.id, limit: 500)
        }
    }

    /// Every attribute of every item, as `ubq mdls` would print them.
    func everything(_ tree: Tree) throws -> [String] { try everything(tree.index) }

    func everything(_ index: MetadataIndex) throws -> [String] {
        let plan = try QueryPlan(QueryRequest(predicate: nil, scope: .all, sort: [SortKey(attribute: "kMDItemPath")], sync: false))
        return try index.run(plan).items.map { "\($0.attributes.sorted { $0.key < $1.key })" }
    }

    /// A new container is loaded through a pipeline (walk, rows made on a second thread,
    /// plain inserts): over more items than one chunk and one write batch, and names that
    /// are not UTF-8, it must record exactly what reconciling item by item records.
    @Test func aNewContainerLoadedInBulkMatchesOneReconciledItemByItem() throws {
        let tree = try Tree()
        for folder in 0..<30 {
            try FileManager.default.createDirectory(atPath: tree.documents + "/f\(folder)", withIntermediateDirectories: false)
            for file in 0..<100 {
                let name = ["n\(file).txt", "n\(file).png", "n\(file)"][file % 3]
                try tree.write("f\(folder)/\(name)", Array("entry \(folder) \(file)".utf8))
            }
        }
        try tree.write("line\nbreak.md", Array("# heron".utf8))
        let raw = RawPath(tree.documents).appending([0xFF, 0xFE, 0x2E, 0x74, 0x78, 0x74])  // "\xFF\xFE.txt"
        #expect(raw.withCString { open($0, O_CREAT | O_WRONLY, 0o644) } >= 0)
        try tree.indexer.reconcileEverything(readingContent: false)
        try fill(tree)

        let itemByItem = try MetadataIndex(path: tree.root + "/state/item-by-item.sqlite", root: RawPath(tree.root))
        let indexer = try Indexer(root: RawPath(tree.root), index: itemByItem, extraIgnorePatterns: [], logger: tree.logger)
        try indexer.reconcileEverything(readingContent: true)
        let bulk = try everything(tree)
        #expect(bulk.count == 30 * 101 + 2)  // 30 folders of 100 files, two odd names (a scope's root is not listed)
        #expect(bulk == (try everything(itemByItem)))
    }

    @Test func namesComeFirstAndContentFollowsFromTheReader() throws {
        let tree = try Tree()
        try tree.write("notes.txt", Array("a grey heron by the river".utf8))
        try tree.write("report", Self.pdf)  // no extension: only sniffing tells its type
        let diary = try DiaryArchive.encode(
            [DiaryEntry(id: "E-1", title: "Egret", body: "white", created: ReferenceDate(secondsSince2001: 1), modified: ReferenceDate(secondsSince2001: 2))],
            format: .binary)
        try tree.write("Diary.archive", diary)

        try tree.indexer.reconcileEverything(readingContent: false)
        #expect(try tree.names("kMDItemFSName LIKE '*'") == ["Diary.archive", "notes.txt", "report"])
        #expect(try tree.names(#"kMDItemTextContent CONTAINS "heron""#).isEmpty)
        #expect(try tree.names(#"kMDItemContentType == "com.adobe.pdf""#).isEmpty)
        #expect(try tree.index.pendingContentCount() == 3)

        try fill(tree)
        #expect(try tree.index.pendingContentCount() == 0)
        #expect(try tree.names(#"kMDItemTextContent CONTAINS "heron""#) == ["notes.txt"])
        #expect(try tree.names(#"kMDItemContentType == "com.adobe.pdf""#) == ["report"])
        #expect(try tree.names(#"kMDItemTextContent CONTAINS "egret""#) == ["Diary.archive"])

        // The same index as reading everything at once.
        let direct = try Tree()
        for name in ["notes.txt", "report", "Diary.archive"] {
            try FileManager.default.copyItem(atPath: tree.documents + "/" + name, toPath: direct.documents + "/" + name)
        }
        try direct.indexer.reconcileEverything(readingContent: true)
        // Dates differ (the copies are new files); every other attribute must match.
        let normalized = { (lines: [String]) in
            lines.map {
                $0.replacingOccurrences(of: direct.root, with: "ROOT").replacingOccurrences(of: tree.root, with: "ROOT")
                    .replacingOccurrences(of: #"date\([0-9.e+-]+\)"#, with: "date", options: .regularExpression)
            }
        }
        let deferred = normalized(try everything(tree))
        #expect(deferred.count == 3)
        #expect(deferred == normalized(try everything(direct)))
    }

    @Test func aFileChangedBetweenScanAndReadKeepsWaitingForTheWatcher() throws {
        let tree = try Tree()
        try tree.write("notes.txt", Array("first words".utf8))
        try tree.indexer.reconcileEverything(readingContent: false)
        let pending = try tree.index.pendingContent(after: 0, limit: 100)
        try tree.write("notes.txt", Array("second words, longer".utf8))  // the watcher would report this
        let reader = try ContentReader(root: RawPath(tree.root), logger: tree.logger)
        try tree.indexer.fillContent(reader.read(pending))
        #expect(try tree.index.pendingContentCount() == 1)
        #expect(try tree.names(#"kMDItemTextContent CONTAINS "second""#).isEmpty)
    }

    @Test func aRestartReadsWhatAnInterruptedContentPassLeft() throws {
        let tree = try Tree()
        try tree.write("notes.txt", Array("heron".utf8))
        try tree.indexer.reconcileEverything(readingContent: false)
        // The daemon stopped before reading content; nothing changed on the disk since.
        try tree.indexer.reconcileEverything(readingContent: false)
        #expect(try tree.index.pendingContentCount() == 1)
        try fill(tree)
        #expect(try tree.names(#"kMDItemTextContent CONTAINS "heron""#) == ["notes.txt"])
    }
}
