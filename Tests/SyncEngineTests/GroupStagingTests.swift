import Coordination
import Foundation
import RawPaths
import SyncPlanning
import Testing

@testable import SyncEngine

/// Uploads staged together under one coordinated read claim (`Executor.stage(_:)`), as a
/// first sync does for each run of files.
@Suite struct GroupStagingTests {
    final class Setup {
        let scratch = Scratch()
        var folder: String { scratch.path + "/container" }
        let executor: Executor

        init() throws {
            try FileManager.default.createDirectory(atPath: scratch.path + "/container", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: scratch.path + "/locks", withIntermediateDirectories: true)
            executor = Executor(
                containerID: "iCloud.org.example.Test", containerFolder: RawPath(scratch.path + "/container"),
                store: ContentStore(layout: MirrorLayout(root: scratch.path + "/mirror"), device: "d1"),
                coordinator: try FileCoordinator(lockDirectory: URL(fileURLWithPath: scratch.path + "/locks")))
        }

        /// An upload of `name` as the scan sees it now.
        func upload(_ name: String) throws -> Upload {
            let hash = try ContentHashing.hash(path: folder + "/" + name, refusingWriters: false)
            return try #require(Upload(name, state: .file(sha256: hash.sha256, size: hash.size), local: nil, in: RawPath(folder)))
        }

        func write(_ name: String, _ text: String) throws {
            try text.write(toFile: folder + "/" + name, atomically: false, encoding: .utf8)
        }
    }

    @Test func aFileChangedSinceTheScanStopsTheGroupAndTheRestStageAlone() throws {
        let setup = try Setup()
        var uploads: [Upload] = []
        for name in ["a", "b", "c", "d"] {
            try setup.write(name, "content of \(name)")
            uploads.append(try setup.upload(name))
        }
        try setup.write("b", "b was edited after the scan")

        let outcomes = setup.executor.stage(uploads)
        #expect(Set(outcomes.keys) == ["a", "b"])  // stopped at b: c and d stage on their own later
        let staged = try #require(try outcomes["a"]?.get())
        #expect(FileManager.default.contents(atPath: staged.staging) == Data("content of a".utf8))
        let error = try #require(throws: SyncError.self) { try outcomes["b"]?.get() }
        #expect(error.code == .changedMeanwhile)

        setup.executor.discard(outcomes)
        #expect(!FileManager.default.fileExists(atPath: staged.staging))
    }

    @Test func contentTheStoreHoldsAlreadyIsNotStagedAgain() throws {
        let setup = try Setup()
        try setup.write("a", "same")
        try setup.write("b", "same")
        let uploads = [try setup.upload("a"), try setup.upload("b")]
        let first = setup.executor.stage(uploads)
        #expect(first.count == 2)
        let staged = try #require(try first["a"]?.get())
        try setup.executor.store.commit([staged], faults: nil)
        let second = setup.executor.stage(uploads)
        #expect(try second["a"]?.get() == nil && second["b"]?.get() == nil)
    }
}
