import Foundation
import GRDB
import Testing

@testable import SQLiteDirect

/// A state file that is no database is recognized as damaged, and set aside with its
/// WAL and shared-memory files, so that a new one can be made in its place.
@Suite struct DamagedDatabaseTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-damaged-\(UUID().uuidString)").path

    init() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    @Test func aFileOfGarbageIsDamageAndIsSetAsideWithItsCompanions() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/state.sqlite"
        for suffix in ["", "-wal", "-shm"] {
            try Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }).write(to: URL(fileURLWithPath: path + suffix))
        }
        let error = try #require(throws: (any Error).self) { _ = try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") } }
        #expect(DamagedDatabase.isDamage(error), "\(error)")

        let aside = try DamagedDatabase.setAside(path, at: Date(timeIntervalSince1970: 1_795_858_208))
        #expect(aside == path + ".damaged-20261128T093008Z")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(names.contains("state.sqlite.damaged-20261128T093008Z"), "\(names)")
        #expect(names.allSatisfy { $0.hasPrefix("state.sqlite.damaged-20261128T093008Z") }, "the companions SQLite left go with it: \(names)")
        #expect(try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") } == 0, "a new one opens")
    }

    @Test func otherErrorsAreNotDamage() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let error = try #require(throws: (any Error).self) { _ = try DatabaseQueue(path: folder + "/missing/state.sqlite") }
        #expect(!DamagedDatabase.isDamage(error), "\(error)")
        #expect(!DamagedDatabase.isDamage(CocoaError(.fileReadCorruptFile)))
    }
}
