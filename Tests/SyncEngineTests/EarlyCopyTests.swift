import Foundation
import Glibc
import IgnoreRules
import RawPaths
import SyncPlanning
import Testing

@testable import SyncEngine

/// A file the scan hashes is copied into the store meanwhile (`EarlyCopy`): a large one by
/// the kernel, a small one from the bytes hashed. The upload then takes that copy, but only
/// while the file is still the one copied.
@Suite struct EarlyCopyTests {
    final class Setup {
        let scratch = Scratch()
        var folder: String { scratch.path + "/container" }
        let store: ContentStore
        var incoming: String { store.layout.incoming }

        init() throws {
            try FileManager.default.createDirectory(atPath: scratch.path + "/container", withIntermediateDirectories: true)
            store = ContentStore(layout: MirrorLayout(root: scratch.path + "/mirror"), device: "d1")
        }

        /// A file of `size` random bytes; returns them.
        @discardableResult
        func write(_ name: String, size: Int) throws -> Data {
            let bytes = try EarlyCopyTests.randomBytes(size)
            try bytes.write(to: URL(fileURLWithPath: folder + "/" + name))
            return bytes
        }

        /// `racyWindow`: how long before the scan a file must have changed for its
        /// signature to vouch for it (0: any file written before the scan).
        func scan(likelyNew: Bool = true, racyWindow: Int64 = 0) -> LocalTree {
            let copier = EarlyCopier(store: store) { _, _ in likelyNew }
            copiers.append(copier)
            return LocalTree.scan(containerFolder: RawPath(folder), ignore: .none, base: [:], racyWindow: racyWindow, copier: copier)
        }

        /// The copiers of the scans so far, whose copies `removeUnused` removes.
        private var copiers: [EarlyCopier] = []

        /// What the pass does once it is over: the copies of `tree` no upload took go.
        func removeUnused(_ tree: LocalTree) {
            for copier in copiers { copier.removeUnused(tree.earlyCopies) }
        }

        /// A file of `size` at `name`, scanned: the tree and the copy the scan made of it.
        func scanFile(_ name: String, size: Int) throws -> (tree: LocalTree, copy: EarlyCopy) {
            try write(name, size: size)
            let tree = scan()
            return (tree, try #require(tree.entries[name]?.earlyCopy))
        }

        func upload(_ name: String, from tree: LocalTree) throws -> Upload {
            let entry = try #require(tree.entries[name])
            return try #require(Upload(name, state: entry.state, local: entry, in: RawPath(folder)))
        }

        /// Stages `name`'s upload, as `Executor.stage` does.
        func stage(_ name: String, from tree: LocalTree) throws -> StagedObject? {
            try upload(name, from: tree).stage(in: store, through: FolderCursor(root: RawPath(folder)))
        }

        /// The files below `store/incoming/`, named relative to it.
        var stagingFiles: [String] { TestDevice.tree(at: incoming).filter { $0.value != "<folder>" }.keys.sorted() }

        /// What `store/incoming/` itself holds: files and folders.
        var incomingEntries: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: incoming)) ?? []).sorted() }
    }

    static let large = Int(EarlyCopy.threshold) + (1 << 20)
    /// Copied by neither way: the upload copies it in the kernel.
    static let middling = Int(ContentStore.kernelCopyThreshold) + 4096
    static let sizes = [4096, large]

    static func randomBytes(_ count: Int) throws -> Data {
        let source = try #require(FileHandle(forReadingAtPath: "/dev/urandom"))
        defer { try? source.close() }
        return try #require(try source.read(upToCount: count))
    }

    @Test func theScanCopiesLargeAndSmallFilesItHashes() throws {
        let setup = try Setup()
        let big = try setup.write("big.bin", size: Self.large)
        let small = try setup.write("small.bin", size: 4096)
        try setup.write("middling.bin", size: Self.middling)
        let tree = setup.scan()
        let bigCopy = try #require(tree.entries["big.bin"]?.earlyCopy)
        let smallCopy = try #require(tree.entries["small.bin"]?.earlyCopy)
        #expect(FileManager.default.contents(atPath: bigCopy.staging) == big)
        #expect(FileManager.default.contents(atPath: smallCopy.staging) == small)
        #expect(tree.entries["middling.bin"]?.earlyCopy == nil)
        #expect(Set(tree.earlyCopies) == [bigCopy.staging, smallCopy.staging])
    }

    @Test(arguments: sizes) func contentLikelyInTheStoreAlreadyIsNotCopied(size: Int) throws {
        let setup = try Setup()
        try setup.write("file.bin", size: size)
        let tree = setup.scan(likelyNew: false)
        #expect(tree.entries["file.bin"]?.earlyCopy == nil)
        #expect(setup.stagingFiles.isEmpty)
    }

    /// A small file changed less than the racy window before the scan may change again
    /// without its signature showing it: its upload reads it again.
    @Test func aSmallFileChangedJustBeforeTheScanIsNotCopied() throws {
        let setup = try Setup()
        try setup.write("small.bin", size: 4096)
        let tree = setup.scan(racyWindow: 60_000_000_000)
        #expect(tree.entries["small.bin"] != nil)
        #expect(tree.entries["small.bin"]?.earlyCopy == nil)
        #expect(setup.stagingFiles.isEmpty)
    }

    @Test(arguments: sizes) func theUploadTakesTheEarlyCopyOfAnUnchangedFile(size: Int) throws {
        let setup = try Setup()
        let (tree, copy) = try setup.scanFile("file.bin", size: size)
        let staged = try #require(try setup.stage("file.bin", from: tree))
        #expect(staged.staging == copy.staging)
        try setup.store.commit([staged], faults: nil)
        let object = try ContentHashing.hash(path: staged.object, refusingWriters: false)
        #expect(object.sha256 == tree.entries["file.bin"]?.state.sha256)
        #expect(setup.stagingFiles.isEmpty)
    }

    @Test(arguments: sizes) func aFileChangedAfterTheScanIsNotUploadedFromItsEarlyCopy(size: Int) throws {
        let setup = try Setup()
        let (tree, copy) = try setup.scanFile("file.bin", size: size)
        let handle = try #require(FileHandle(forWritingAtPath: setup.folder + "/file.bin"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("appended after the scan".utf8))
        try handle.close()
        let error = try #require(throws: SyncError.self) { try setup.stage("file.bin", from: tree) }
        #expect(error.code == .changedMeanwhile)
        #expect(!FileManager.default.fileExists(atPath: copy.staging))
        #expect(setup.stagingFiles.isEmpty)
    }

    /// At the end of a pass: the early copies no upload took go, and nothing else in
    /// `store/incoming/` (another device's upload in progress, a copy already taken).
    @Test func theCopiesNoUploadTookAreRemovedAndNothingElse() throws {
        let setup = try Setup()
        try setup.write("taken.bin", size: 4096)
        try setup.write("left.bin", size: 4096)
        let tree = setup.scan()
        let left = try #require(tree.entries["left.bin"]?.earlyCopy)
        try setup.store.commit([try #require(try setup.stage("taken.bin", from: tree))], faults: nil)
        let others = setup.incoming + "/d2.upload.part"
        #expect(FileManager.default.createFile(atPath: others, contents: Data("theirs".utf8)))
        #expect(setup.stagingFiles.count == 2)

        setup.removeUnused(tree)
        #expect(!FileManager.default.fileExists(atPath: left.staging))
        #expect(setup.incomingEntries == ["d2.upload.part"], "the copies' folder went with them")
    }

    /// Small files' copies go a few to a folder of this device's (`StagingFolders`), in the
    /// order the scan hashes them; the folders go with the copies no upload took.
    @Test func smallFilesAreCopiedAFewToAFolder() throws {
        let setup = try Setup()
        let count = 2 * StagingFolders.perFolder + 1
        for n in 0..<count { try setup.write(String(format: "f%04d.txt", n), size: 100 + n) }
        let tree = setup.scan()
        let copies = (0..<count).compactMap { tree.entries[String(format: "f%04d.txt", $0)]?.earlyCopy?.staging }
        #expect(copies.count == count)
        let folders = copies.map { Sys.parent(of: $0) }
        #expect(Set(folders).count == 3)
        #expect(Dictionary(grouping: folders, by: { $0 }).values.allSatisfy { $0.count <= StagingFolders.perFolder })
        #expect(folders == folders.sorted(), "neighbours in the scan's order share a folder")
        #expect(Set(folders.map { Sys.parent(of: $0) }) == [setup.incoming])
        #expect(setup.incomingEntries.allSatisfy { $0.hasPrefix("d1.") }, "\(setup.incomingEntries)")

        setup.removeUnused(tree)
        #expect(setup.incomingEntries.isEmpty)
    }

    /// A batch renames every copy out of its folder: the folders are empty, and go.
    @Test func theFoldersOfCopiesUploadedGo() throws {
        let setup = try Setup()
        for n in 0..<(StagingFolders.perFolder + 5) { try setup.write("f\(n).txt", size: 10 + n) }
        let tree = setup.scan()
        let staged = try tree.entries.keys.sorted().map { try #require(try setup.stage($0, from: tree)) }
        #expect(staged.allSatisfy { $0.isEarlyCopy })
        try setup.store.commit(staged, faults: nil)
        #expect(setup.stagingFiles.isEmpty)
        #expect(setup.incomingEntries.count == 2, "two folders, emptied")

        setup.removeUnused(tree)
        #expect(setup.incomingEntries.isEmpty)
    }

    @Test func anEarlyCopyOfContentTheStoreHoldsIsRemoved() throws {
        let setup = try Setup()
        let bytes = try setup.write("big.bin", size: Self.large)
        try bytes.write(to: URL(fileURLWithPath: setup.folder + "/same.bin"))
        let first = setup.scan()
        let staged = try #require(try setup.stage("big.bin", from: first))
        try setup.store.commit([staged], faults: nil)
        try FileManager.default.removeItem(atPath: setup.folder + "/big.bin")

        let second = setup.scan()
        let copy = try #require(second.entries["same.bin"]?.earlyCopy)
        #expect(try setup.stage("same.bin", from: second) == nil)
        #expect(!FileManager.default.fileExists(atPath: copy.staging))
    }

    /// Through whole passes: the other device gets the bytes, and no staging file is left
    /// in the store, whether the copy was uploaded or not needed.
    @Test func aLargeFileReachesTheOtherDeviceAndNoCopyIsLeftBehind() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        let bytes = try Self.randomBytes(Self.large)
        try bytes.write(to: URL(fileURLWithPath: a.documents + "/big.bin"))
        a.sync()
        b.sync()
        #expect(FileManager.default.contents(atPath: b.documents + "/big.bin") == bytes)
        // The same bytes under a new name: the store has them, the copy is not needed.
        try bytes.write(to: URL(fileURLWithPath: a.documents + "/again.bin"))
        #expect(a.sync().published == 1)
        let incoming = MirrorLayout(root: a.mirror).incoming
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: incoming)) ?? []).isEmpty)
    }

    /// Many small files, copied into folders by the scan: all arrive, and neither copies
    /// nor folders are left in the store.
    @Test func manySmallFilesReachTheOtherDeviceAndNoFolderIsLeftBehind() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        a.engine.racyWindowNanoseconds = 0  // every file vouched for: every file copied early
        let count = StagingFolders.perFolder * 2 + 7
        for n in 0..<count { try Data("small file \(n)\n".utf8).write(to: URL(fileURLWithPath: a.documents + "/s\(n).txt")) }
        a.sync()
        b.sync()
        for n in 0..<count {
            #expect(FileManager.default.contents(atPath: b.documents + "/s\(n).txt") == Data("small file \(n)\n".utf8))
        }
        let incoming = MirrorLayout(root: a.mirror).incoming
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: incoming)) ?? []).isEmpty)
    }
}
