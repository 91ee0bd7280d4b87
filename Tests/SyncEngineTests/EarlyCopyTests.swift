import Foundation
import Glibc
import IgnoreRules
import RawPaths
import SyncPlanning
import Testing

@testable import SyncEngine

/// A large file is copied into the store while the scan hashes it (`EarlyCopy`); the
/// upload then takes that copy, but only while the file is still the one copied.
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

        func scan(likelyNew: Bool = true) -> LocalTree {
            let copier = EarlyCopier(store: store) { _, _ in likelyNew }
            return LocalTree.scan(containerFolder: RawPath(folder), ignore: .none, base: [:], racyWindow: 0, copier: copier)
        }

        /// A large file at `big.bin`, scanned: the tree and the copy the scan made of it.
        func scanLargeFile() throws -> (tree: LocalTree, copy: EarlyCopy) {
            try write("big.bin", size: EarlyCopyTests.large)
            let tree = scan()
            return (tree, try #require(tree.entries["big.bin"]?.earlyCopy))
        }

        func upload(_ name: String, from tree: LocalTree) throws -> Upload {
            let entry = try #require(tree.entries[name])
            return try #require(Upload(name, state: entry.state, local: entry, in: RawPath(folder)))
        }

        /// Stages `name`'s upload, as `Executor.stage` does.
        func stage(_ name: String, from tree: LocalTree) throws -> StagedObject? {
            try upload(name, from: tree).stage(in: store, through: FolderCursor(root: RawPath(folder)))
        }

        var stagingFiles: [String] { (try? FileManager.default.contentsOfDirectory(atPath: incoming)) ?? [] }
    }

    static let large = Int(EarlyCopy.threshold) + (1 << 20)

    static func randomBytes(_ count: Int) throws -> Data {
        let source = try #require(FileHandle(forReadingAtPath: "/dev/urandom"))
        defer { try? source.close() }
        return try #require(try source.read(upToCount: count))
    }

    @Test func theScanCopiesALargeFileItHashesAndNotASmallOne() throws {
        let setup = try Setup()
        let bytes = try setup.write("big.bin", size: Self.large)
        try setup.write("small.bin", size: 4096)
        let tree = setup.scan()
        let copy = try #require(tree.entries["big.bin"]?.earlyCopy)
        #expect(FileManager.default.contents(atPath: copy.staging) == bytes)
        #expect(tree.entries["small.bin"]?.earlyCopy == nil)
        #expect(tree.earlyCopies == [copy.staging])
    }

    @Test func contentLikelyInTheStoreAlreadyIsNotCopied() throws {
        let setup = try Setup()
        try setup.write("big.bin", size: Self.large)
        let tree = setup.scan(likelyNew: false)
        #expect(tree.entries["big.bin"]?.earlyCopy == nil)
        #expect(setup.stagingFiles.isEmpty)
    }

    @Test func theUploadTakesTheEarlyCopyOfAnUnchangedFile() throws {
        let setup = try Setup()
        let (tree, copy) = try setup.scanLargeFile()
        let staged = try #require(try setup.stage("big.bin", from: tree))
        #expect(staged.staging == copy.staging)
        try setup.store.commit([staged], faults: nil)
        let object = try ContentHashing.hash(path: staged.object, refusingWriters: false)
        #expect(object.sha256 == tree.entries["big.bin"]?.state.sha256)
        #expect(setup.stagingFiles.isEmpty)
    }

    @Test func aFileChangedAfterTheScanIsNotUploadedFromItsEarlyCopy() throws {
        let setup = try Setup()
        let (tree, copy) = try setup.scanLargeFile()
        let handle = try #require(FileHandle(forWritingAtPath: setup.folder + "/big.bin"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("appended after the scan".utf8))
        try handle.close()
        let error = try #require(throws: SyncError.self) { try setup.stage("big.bin", from: tree) }
        #expect(error.code == .changedMeanwhile)
        #expect(!FileManager.default.fileExists(atPath: copy.staging))
        #expect(setup.stagingFiles.isEmpty)
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
}
