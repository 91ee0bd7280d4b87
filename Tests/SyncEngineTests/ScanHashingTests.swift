import Crypto
import Foundation
import Glibc
import RawPaths
import SyncPlanning
import TestSupport
import Testing

@testable import SyncEngine

/// A scan's small files are hashed ahead of `LocalTree.add`, on several threads when there
/// are many (`ScanHashing`). Each outcome must still be its own file's, in the jobs' order,
/// and the scan must come out as if it had hashed them one by one.
@Suite struct ScanHashingTests {
    let scratch = Scratch()
    var folder: String { scratch.path + "/container" }
    /// Enough files for the threads to share them, in several folders.
    static let count = ScanHashing.parallelFrom * 3 + 17

    static func name(_ n: Int) -> String { "d\(n % 7)/f\(n).txt" }

    /// Files of different contents and sizes (some empty); returns each one's bytes.
    func writeFiles() throws -> [Data] {
        var random = SplitMix64(seed: 33)
        return try (0..<Self.count).map { n in
            let bytes = Data((0..<Int(random.next() % 9000) * (n % 5 == 0 ? 0 : 1)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
            let path = folder + "/" + Self.name(n)
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try bytes.write(to: URL(fileURLWithPath: path))
            return bytes
        }
    }

    static func sha256(_ bytes: Data) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    func job(_ n: Int, staging: String? = nil) -> ScanHashing.Job {
        ScanHashing.Job(relative: RawPath(Self.name(n)), size: 0, refusingWriters: false, staging: staging)
    }

    @Test func eachOutcomeIsItsOwnFilesInTheJobsOrder() throws {
        let contents = try writeFiles()
        // A missing file among them fails alone, at its place.
        let missing = 101
        try FileManager.default.removeItem(atPath: folder + "/" + Self.name(missing))
        let outcomes = ScanHashing.hash((0..<Self.count).map { job($0) }, beneath: RawPath(folder))
        #expect(outcomes.count == Self.count)
        for (n, outcome) in outcomes.enumerated() {
            if n == missing {
                #expect(throws: SyncError.self) { try outcome.get() }
                continue
            }
            let content = try outcome.get().content
            #expect(content == ContentHashing.Result(sha256: Self.sha256(contents[n]), size: Int64(contents[n].count)), "\(Self.name(n))")
        }
    }

    @Test func eachCopyHoldsItsOwnFile() throws {
        let contents = try writeFiles()
        let incoming = scratch.path + "/incoming"
        let jobs = (0..<Self.count).map { job($0, staging: "\(incoming)/copy-\($0)") }
        let outcomes = ScanHashing.hash(jobs, beneath: RawPath(folder))
        for n in 0..<Self.count {
            #expect(try outcomes[n].get().copy == "\(incoming)/copy-\(n)")
            #expect(FileManager.default.contents(atPath: "\(incoming)/copy-\(n)") == contents[n], "\(Self.name(n))")
        }
    }

    /// A copy is only a head start for the upload: where there is no room for it, the file
    /// is hashed all the same, with no copy.
    @Test(.enabled(if: SmallDisk.canMount, "needs root to mount a small tmpfs"))
    func aFileIsHashedWithoutItsCopyWhenTheMirrorIsFull() throws {
        let contents = try writeFiles()
        let incoming = scratch.path + "/incoming"
        try FileManager.default.createDirectory(atPath: incoming, withIntermediateDirectories: true)
        try SmallDisk.mount(at: incoming, size: "1m")
        defer { SmallDisk.unmount(incoming) }
        SmallDisk.fill(incoming)
        let jobs = (0..<Self.count).map { job($0, staging: "\(incoming)/copy-\($0)") }
        let outcomes = ScanHashing.hash(jobs, beneath: RawPath(folder))
        for n in 0..<Self.count where !contents[n].isEmpty {
            let hashed = try outcomes[n].get()
            #expect(hashed.content.sha256 == Self.sha256(contents[n]) && hashed.copy == nil, "\(Self.name(n))")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: incoming).filter { $0.hasPrefix("copy-") }
        #expect(left.allSatisfy { FileManager.default.contents(atPath: "\(incoming)/\($0)")?.isEmpty == true }, "only empty files fit")
    }

    /// The whole scan, with its early copies: every file's state and copy are its own, and
    /// a copy the scan does not keep (a name that is another's in NFC) is removed.
    @Test func aScanOfManyFilesIsAsIfHashedOneByOne() throws {
        let contents = try writeFiles()
        let nfc = "caf\u{E9}.txt"
        let nfd = "cafe\u{301}.txt"
        try "first".write(toFile: folder + "/" + nfc, atomically: false, encoding: .utf8)
        try "second".write(toFile: folder + "/" + nfd, atomically: false, encoding: .utf8)
        let store = ContentStore(layout: MirrorLayout(root: scratch.path + "/mirror"), device: "d1")
        let tree = LocalTree.scan(
            containerFolder: RawPath(folder), ignore: .none, base: [:], racyWindow: 0, copier: EarlyCopier(store: store) { _, _ in true })
        #expect(tree.hashed == Self.count + 1)
        for n in 0..<Self.count {
            let entry = try #require(tree.entries[Self.name(n)])
            #expect(entry.state.sha256 == Self.sha256(contents[n]) && entry.state.size == Int64(contents[n].count), "\(Self.name(n))")
            let copy = try #require(entry.earlyCopy)
            #expect(FileManager.default.contents(atPath: copy.staging) == contents[n], "\(Self.name(n))")
        }
        #expect(tree.problems.contains { $0.contains("same name in NFC and NFD") })
        let incoming = store.layout.incoming
        let staged = TestDevice.tree(at: incoming).filter { $0.value != "<folder>" }.keys.map { incoming + "/" + $0 }
        #expect(Set(staged).subtracting(tree.earlyCopies).isEmpty, "a copy left that no entry names")
        #expect(staged.count == tree.earlyCopies.count)
    }
}
