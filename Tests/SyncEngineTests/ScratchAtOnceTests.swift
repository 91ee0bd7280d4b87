import Foundation
import RawPaths
import SyncPlanning
import Testing

@testable import SyncEngine

@Suite struct ScratchAtOnceTests {
    typealias Move = FolderMoveSyncTests
    @Test func movedIn() throws {
        let scratch = Scratch()
        let (a, b, c) = try StraySyncTests.atOnce(scratch) { try Move.rename($0, "other.txt", to: "p/other.txt") }
        print("MOVEDIN A", a.tree().keys.sorted())
        print("MOVEDIN B", b.tree().keys.sorted())
        print("MOVEDIN C", c.tree().keys.sorted())
    }
    @Test func deeperTarget() throws {
        let scratch = Scratch()
        let (a, b, c) = try StraySyncTests.atOnce(scratch, on: { a in
            try FileManager.default.createDirectory(atPath: a.documents + "/r", withIntermediateDirectories: true)
            try Move.rename(a, "p", to: "r/q") }) { try $0.write("p/new.txt", "n") }
        print("DEEP A", a.tree().keys.sorted())
        print("DEEP B", b.tree().keys.sorted())
        print("DEEP C", c.tree().keys.sorted())
    }
}
