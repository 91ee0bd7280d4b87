import Foundation
import Testing

@testable import SyncEngine

/// `AbsentObjects`: a pass asks the store about an object without a lookup only the first
/// time, and only where the object's folder did not exist when the store was listed.
@Suite struct AbsentObjectsTests {
    let scratch = Scratch()
    var objects: String { scratch.path + "/mirror/store/sha256" }
    static let inAB = "ab" + String(repeating: "0", count: 62)
    static let inCD = "cd" + String(repeating: "0", count: 62)

    @Test func inAnEmptyStoreOnlyTheFirstQuestionAboutAnObjectIsAnsweredWithoutLooking() {
        let absent = AbsentObjects(objects: objects)
        #expect(!absent.mayHold(Self.inAB))
        #expect(absent.mayHold(Self.inAB), "the pass may have stored it since")
        #expect(!absent.mayHold(Self.inCD))
    }

    @Test func anObjectWhoseFolderExistedIsLookedUp() throws {
        try FileManager.default.createDirectory(atPath: objects + "/ab", withIntermediateDirectories: true)
        let absent = AbsentObjects(objects: objects)
        #expect(absent.mayHold(Self.inAB))
        #expect(!absent.mayHold(Self.inCD))
    }

    @Test func theStoreIsListedOnceAtTheFirstQuestion() throws {
        let absent = AbsentObjects(objects: objects)
        #expect(!absent.mayHold(Self.inCD))
        try FileManager.default.createDirectory(atPath: objects + "/ab", withIntermediateDirectories: true)
        #expect(!absent.mayHold(Self.inAB), "the folder came after the listing")
    }

    @Test func aStoreThatCannotBeListedHasEveryObjectLookedUp() throws {
        try FileManager.default.createDirectory(atPath: scratch.path + "/mirror/store", withIntermediateDirectories: true)
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: objects))
        let absent = AbsentObjects(objects: objects)
        #expect(absent.mayHold(Self.inAB))
    }

    @Test func aStoreReusesContentItStoredAfterTheListing() throws {
        let store = ContentStore(layout: MirrorLayout(root: scratch.path + "/mirror"), device: "d1", absent: AbsentObjects(objects: objects))
        let stored = try store.store(bytes: Array("same content".utf8))  // its first question, answered without looking
        #expect(store.reuses(stored.sha256, size: stored.size), "a second file with the same content reuses the object")
    }
}
