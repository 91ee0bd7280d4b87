import Foundation
import SyncPlanning
import Testing
@testable import SyncEngine

/// A pass reads only the base entries at and below its roots: an entry outside them would
/// look deleted on disk, since the pass does not scan there.
@Suite struct BaseSubtreeTests {
    static let paths = [
        "a", "a/b", "a/c/d", "a b", "a.txt", "a-1/x", "a0", "ab", "b", "é", "é/x", "éa",
    ]

    static func database() throws -> (SyncDatabase, String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("base-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let database = try SyncDatabase(path: folder + "/sync.sqlite")
        let state = EntryState.file(sha256: String(repeating: "a", count: 64), size: 1)
        let commits = paths.enumerated().map { offset, path in
            BaseCommit("publish", path: path, version: VersionID(device: "d", sequence: UInt64(offset + 1)), state: state, signature: nil)
        }
        try database.commit(container: "c", commits)
        try database.commit(container: "other", [commits[1]])
        return (database, folder)
    }

    static let cases: [([String], [String])] = [
        (["a"], ["a", "a/b", "a/c/d"]),
        (["a/c"], ["a/c/d"]),
        (["a b", "ab"], ["a b", "ab"]),
        (["a0"], ["a0"]),
        (["é"], ["é", "é/x"]),  // base paths are NFC: bytes compared, as SQLite does
        (["missing"], []),
        (["a", "a/c", "a/c/d"], ["a", "a/b", "a/c/d"]),  // nested roots: each entry once
    ]

    @Test(arguments: cases)
    func aRootFindsItselfAndWhatIsBelowItOnly(roots: [String], expected: [String]) throws {
        try expect(roots, find: expected)
    }

    /// Many roots on a small base: the base is read whole and filtered, and the same
    /// entries come out as from the lookups.
    @Test(arguments: cases)
    func manyRootsFindTheSameEntries(roots: [String], expected: [String]) throws {
        let padding = (0..<SyncDatabase.fewestRootsToReadWhole).map { "missing/\($0)" }
        try expect(roots + padding, find: expected)
    }

    private func expect(_ roots: [String], find expected: [String]) throws {
        let (database, folder) = try Self.database()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let found = try database.base(container: "c", under: roots)
        #expect(found.keys.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
            == expected.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) })
    }

    @Test func withoutRootsEveryEntryOfTheContainerOnly() throws {
        let (database, folder) = try Self.database()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try database.base(container: "c").count == Self.paths.count)
        #expect(try database.base(container: "other").keys.sorted() == ["a/b"])
    }

    /// The bounded count that chooses between lookups and reading the base whole.
    @Test func fewerRowsThanALimitCountsThisContainerOnly() throws {
        let (database, folder) = try Self.database()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let count = Self.paths.count
        #expect(try database.baseHasFewerRows(container: "c", than: count + 1))
        #expect(try !database.baseHasFewerRows(container: "c", than: count))
        #expect(try !database.baseHasFewerRows(container: "c", than: 1))
        #expect(try database.baseHasFewerRows(container: "other", than: 2))
        #expect(try !database.baseHasFewerRows(container: "other", than: 1))
        #expect(try database.baseHasFewerRows(container: "none", than: 1))
    }
}
