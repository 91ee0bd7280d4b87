import SyncPlanning
import Testing

@Suite("SyncPlan over a whole container")
struct SyncPlanTests {
    typealias F = Fixture

    @Test func foldersAreMadeBeforeTheirContentAndEmptiedBeforeTheyGo() {
        let newFolder = F.record(F.id("B", 1), .folder(), path: "Documents/new")
        let newFile = F.record(F.id("B", 2), F.a, path: "Documents/new/file")
        let oldFolder = F.record(F.id("A", 1), .folder(), path: "Documents/old")
        let oldFile = F.record(F.id("A", 2), F.b, path: "Documents/old/file")
        let goneFolder = F.record(F.id("B", 3), nil, parents: [oldFolder.id], time: 5_000, path: "Documents/old")
        let goneFile = F.record(F.id("B", 4), nil, parents: [oldFile.id], time: 5_000, path: "Documents/old/file")
        let trees = SyncTrees(
            local: ["Documents/old": .folder(), "Documents/old/file": F.b],
            base: [
                "Documents/old": BaseEntry(version: oldFolder.id, state: .folder()),
                "Documents/old/file": BaseEntry(version: oldFile.id, state: F.b),
            ],
            histories: [
                "Documents/new": F.history(newFolder), "Documents/new/file": F.history(newFile),
                "Documents/old": F.history(oldFolder, goneFolder), "Documents/old/file": F.history(oldFile, goneFile),
            ])
        let paths = SyncPlan(trees).actions.map(\.path)
        #expect(paths == ["Documents/new", "Documents/new/file", "Documents/old/file", "Documents/old"])
    }

    @Test func aLocalRenameIsPublishedAsAMove() {
        let original = F.record(F.id("A", 1), F.a, path: "Documents/before.txt")
        let trees = SyncTrees(
            local: ["Documents/after.txt": F.a],
            base: ["Documents/before.txt": BaseEntry(version: original.id, state: F.a)],
            histories: ["Documents/before.txt": F.history(original)])
        let actions = SyncPlan(trees).actions
        #expect(actions.contains(.publish(path: "Documents/after.txt", state: F.a, parents: [], movedFrom: "Documents/before.txt")))
        #expect(actions.contains(.publish(path: "Documents/before.txt", state: nil, parents: [original.id])))
        #expect(SyncPlan(trees).deletionCount == 0, "a move deletes nothing: the guard does not count it")
        #expect(SyncPlan(trees).withoutPublishedDeletions().actions == actions, "nor holds it back")
    }

    @Test func twoCopiesOfOneRenamedFileClaimTheOriginOnce() {
        let original = F.record(F.id("A", 1), F.a, path: "x")
        let trees = SyncTrees(
            local: ["y": F.a, "z": F.a], base: ["x": BaseEntry(version: original.id, state: F.a)],
            histories: ["x": F.history(original)])
        let moved = SyncPlan(trees).actions.compactMap { action -> String? in
            if case .publish(_, _, _, let origin?) = action { return origin }
            return nil
        }
        #expect(moved == ["x"])
    }
}
