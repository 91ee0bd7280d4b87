import Foundation
import Glibc
import IgnoreRules
import MetadataIndex
import RawPaths
import TestSupport
import Testing

@testable import Indexing

/// Reconciliation as a merge of two path-ordered listings: the disk walk's order, the
/// merge's differences, and a real index reconciled against a real tree.
@Suite struct OrderedReconcileTests {
    /// Names whose order differs from depth-first order: space, `.` and `-` sort before
    /// `/`, so `a b`, `a-` and `a.txt` come between the folder `a` and `a/x`; and raw
    /// bytes that are not UTF-8, one of them 0xFF.
    static let trickyNames: [[UInt8]] = [
        Array("a".utf8), Array("a b".utf8), Array("a.txt".utf8), Array("a-".utf8), Array("a0".utf8), Array("b".utf8),
        [0x01, 0x61], [0xFF, 0xFE], [0xC3, 0xA9],
    ]

    final class Folder {
        let path: String
        private let owned: Bool

        /// A new temporary folder, removed with this object.
        init() throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-walk-\(UUID().uuidString.prefix(8))").path
            owned = true
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }

        /// A folder that exists and that someone else removes.
        init(existing path: String) {
            self.path = path
            owned = false
        }

        deinit { if owned { try? FileManager.default.removeItem(atPath: path) } }

        /// Makes `relative` (raw bytes) as a folder or an empty file.
        func make(_ relative: RawPath, folder: Bool) throws {
            let absolute = RawPath(path).appending(relative)
            let result = absolute.withCString { folder ? mkdir($0, 0o755) : open($0, O_CREAT | O_WRONLY | O_CLOEXEC, 0o644) }
            #expect(result >= 0, "cannot make \(absolute)")
            if !folder && result >= 0 { close(result) }
        }
    }

    /// A tree of the tricky names two levels deep: folders are the names in even
    /// positions, files the others.
    func makeTrickyTree(_ folder: Folder) throws -> [RawPath] {
        var made: [RawPath] = []
        for (position, name) in Self.trickyNames.enumerated() {
            let top = RawPath(bytes: name)
            let isFolder = position % 2 == 0
            try folder.make(top, folder: isFolder)
            made.append(top)
            guard isFolder else { continue }
            for inner in Self.trickyNames.prefix(4) {
                try folder.make(top.appending(inner), folder: false)
                made.append(top.appending(inner))
            }
        }
        return made
    }

    @Test func theWalkYieldsEveryItemInByteOrder() throws {
        let folder = try Folder()
        let made = try makeTrickyTree(folder)
        var walk = OrderedTreeWalk(folder: RawPath(folder.path), prefix: RawPath(), ignore: .none)
        var walked: [RawPath] = []
        while let (path, _) = walk.next() { walked.append(path) }
        #expect(walked == made.sorted())
        #expect(walk.failures.isEmpty)
    }

    @Test func theWalkNamesItemsBelowItsPrefixAndSkipsIgnoredOnes() throws {
        let folder = try Folder()
        try folder.make("keep", folder: true)
        try folder.make("keep/notes.txt", folder: false)
        try folder.make("keep/.notes.txt.swp", folder: false)  // a vim swap file: ignored by default
        try folder.make("build", folder: true)
        try folder.make("build/out.o", folder: false)
        let rules = IgnoreRules.editorAndSyncTemporaries.adding(try IgnoreRules(parsing: "build/\n", baseDirectory: ""))
        var walk = OrderedTreeWalk(folder: RawPath(folder.path), prefix: "Documents", ignore: rules)
        var walked: [String] = []
        while let (path, _) = walk.next() { walked.append(path.readable) }
        #expect(walked == ["Documents/keep", "Documents/keep/notes.txt"])
    }

    @Test func theMergeFindsWhatAMapComparisonFinds() throws {
        var generator = SplitMix64(seed: 7)
        for round in 0..<300 {
            let universe = Self.randomTree(&generator)
            let disk = Self.closedSubset(of: universe, &generator).map { ($0, Self.status(Int.random(in: 0..<3, using: &generator))) }
            let index = Self.closedSubset(of: universe, &generator).map {
                IndexedSignature(relativePath: $0, signature: Self.status(Int.random(in: 0..<3, using: &generator)).signature)
            }
            var diskEntries = disk.sorted { $0.0 < $1.0 }.makeIterator()
            var indexEntries = index.sorted { $0.relativePath < $1.relativePath }.makeIterator()
            var difference = TreeDifference(disk: { diskEntries.next().map { (path: $0.0, status: $0.1) } }, index: { indexEntries.next() })
            var found: [String] = []
            while let change = try difference.next() {
                switch change {
                case .changed(let path, _): found.append("changed \(path)")
                case .removed(let path): found.append("removed \(path)")
                }
            }
            #expect(found.sorted() == Self.expectedDifferences(disk: disk, index: index).sorted(), "round \(round)")
        }
    }

    @Test func topmostRemovalsSkipPathsBelowAnAdmittedFolderAcrossInterleavedSiblings() {
        var removals = TopmostRemovals()
        let admitted = ["a", "a b", "a b/c", "a-", "a/x", "a/x/y", "a0", "a0/z", "b"].filter { removals.admit(RawPath($0)) }
        #expect(admitted == ["a", "a b", "a-", "a0", "b"])
    }

    // MARK: - The real index against a real tree

    final class IndexedTree {
        let folder: Folder
        let index: MetadataIndex
        let indexer: Indexer
        var documents: RawPath { RawPath(folder.path).appending("iCloud~org~ubiquity~Default/Documents") }

        init() throws {
            folder = try Folder()
            try FileManager.default.createDirectory(atPath: folder.path + "/iCloud~org~ubiquity~Default/Documents", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: folder.path + "/.state", withIntermediateDirectories: true)
            index = try MetadataIndex(path: folder.path + "/.state/index.sqlite", root: RawPath(folder.path))
            indexer = try Indexer(root: RawPath(folder.path), index: index, extraIgnorePatterns: [], logger: RecordingLogHandler.logger().0)
        }

        func indexedPaths() throws -> [RawPath] {
            try index.signatures(container: "iCloud.org.ubiquity.Default", under: RawPath()).keys.sorted()
        }
    }

    @Test(arguments: [true, false]) func reconcilingMakesTheIndexEqualToTheDiskAfterChangesWhileStopped(startUp: Bool) throws {
        let tree = try IndexedTree()
        let folder = Folder(existing: tree.documents.readable)
        let made = try makeTrickyTree(folder)
        try tree.indexer.reconcileEverything(readingContent: !startUp)
        #expect(try tree.indexedPaths() == (["Documents"] + made.map { RawPath("Documents").appending($0) }).sorted())

        // As if ubqd was stopped: remove the folder `a` (and so `a/…`), a file named with
        // a 0xFF byte, and add new items among the remaining ones.
        let documents = tree.documents.readable
        try FileManager.default.removeItem(atPath: documents + "/a")
        #expect(tree.documents.appending([0xFF, 0xFE]).withCString { unlink($0) } == 0)
        try folder.make("a.txt/new", folder: false)
        try folder.make("a c", folder: false)
        try tree.indexer.reconcileEverything(readingContent: !startUp)

        var onDisk = TreeScanner(ignore: .editorAndSyncTemporaries)
        let expected = onDisk.scan(folder: tree.documents, prefix: "Documents").map(\.path)
        #expect(expected == expected.sorted(), "the scan lists the paths in byte order")
        #expect(try tree.indexedPaths() == (["Documents"] + expected).sorted())
        #expect(try !tree.indexedPaths().contains { $0.isSame(orBelow: "Documents/a") })
        #expect(tree.indexer.takeStatistics().removed == 2)  // `a` (one removal for its subtree) and the 0xFF file
    }

    // MARK: - Helpers

    /// Container-relative paths of up to three levels over a few tricky names.
    static func randomTree(_ generator: inout SplitMix64) -> [RawPath] {
        let names = ["a", "a b", "a.txt", "a0", "b"].map { RawPath($0) }
        var paths: [RawPath] = []
        func grow(_ parent: RawPath, depth: Int) {
            for name in names where Bool.random(using: &generator) {
                let path = parent.isEmpty ? name : parent.appending(name)
                paths.append(path)
                if depth < 3 { grow(path, depth: depth + 1) }
            }
        }
        grow(RawPath(), depth: 1)
        return paths
    }

    /// A random subset of `paths` that holds each member's ancestors too, as a tree does.
    static func closedSubset(of paths: [RawPath], _ generator: inout SplitMix64) -> [RawPath] {
        let chosen = Set(paths.filter { _ in Int.random(in: 0..<4, using: &generator) > 0 })
        return chosen.filter { path in path.ancestors.allSatisfy { $0.isEmpty || chosen.contains($0) } }.sorted()
    }

    /// A file's status, told apart from others by its size.
    static func status(_ version: Int) -> FileStatus {
        var status = template
        status.signature.size = Int64(version)
        return status
    }

    static let template = try! FileStatus.read("/")!

    /// The differences as dictionaries tell them: changed where the disk has what the
    /// index lacks or holds with another signature; removed where the index holds what the
    /// disk lacks, topmost only.
    static func expectedDifferences(disk: [(RawPath, FileStatus)], index: [IndexedSignature]) -> [String] {
        let onDisk = Dictionary(uniqueKeysWithValues: disk)
        let known = Dictionary(uniqueKeysWithValues: index.map { ($0.relativePath, $0.signature) })
        let changed = disk.filter { known[$0.0] != $0.1.signature }.map { "changed \($0.0)" }
        let gone = Set(known.keys.filter { onDisk[$0] == nil })
        let removed = gone.filter { path in !path.ancestors.contains(where: gone.contains) }.map { "removed \($0)" }
        return changed + removed
    }
}
