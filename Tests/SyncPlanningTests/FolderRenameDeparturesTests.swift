import SyncPlanning
import Testing

/// The device that renamed a folder publishes it item by item; only the files name where
/// they came from. What else left the old folder left with the rename, not as a deletion:
/// it neither waits for a deletion burst to end nor counts toward a mass deletion.
@Suite("SyncPlan: what a folder's rename leaves is no deletion")
struct FolderRenameDeparturesTests {
    typealias F = Fixture
    static let tree: [String: EntryState] = [
        "a": .folder(), "a/x.txt": F.a, "a/sub": .folder(), "a/sub/y.txt": F.b, "a/empty": .folder(), "a/link": .symlink(to: "x.txt"),
    ]

    /// This device synced `tree` below Documents, then its disk came to hold `local`.
    static func plan(local: [String: EntryState]) -> SyncPlan {
        var base: [String: BaseEntry] = [:]
        var histories: [String: PathHistory] = [:]
        for (index, (path, state)) in tree.sorted(by: { $0.key < $1.key }).enumerated() {
            let record = F.record(F.id("A", UInt64(index + 1)), state, path: "Documents/" + path)
            base[record.path] = BaseEntry(version: record.id, state: state)
            histories[record.path] = F.history(record)
        }
        let documents = Dictionary(uniqueKeysWithValues: local.map { ("Documents/" + $0.key, $0.value) })
        return SyncPlan(SyncTrees(local: documents, base: base, histories: histories))
    }

    static func renamed(_ tree: [String: EntryState], to name: String) -> [String: EntryState] {
        Dictionary(uniqueKeysWithValues: tree.map { (name + $0.key.dropFirst(1), $0.value) })
    }

    @Test(arguments: ["b", "c/b"])
    func aRenamedFolderDeletesNothing(_ name: String) {
        let plan = Self.plan(local: Self.renamed(Self.tree, to: name).merging(name.contains("/") ? ["c": .folder()] : [:]) { $1 })
        #expect(plan.actions.count { if case .publish(_, nil, _, _) = $0 { true } else { false } } == Self.tree.count, "every old path goes")
        #expect(plan.deletionPaths.isEmpty)
        #expect(plan.withoutPublishedDeletions() == plan, "nothing waits")
    }

    @Test func aFileDeletedWhileItsFolderWasRenamedIsADeletionAndSoIsTheFolder() {
        var local = Self.renamed(Self.tree, to: "b")
        local["b/sub/y.txt"] = nil
        #expect(Set(Self.plan(local: local).deletionPaths) == ["Documents/a/sub/y.txt", "Documents/a/sub", "Documents/a"])
    }

    /// `mkdir b; mv a/x.txt b/; rm -rf a`: `a` is not renamed to `b`, whatever `b` holds.
    @Test func aFolderDeletedAfterAFileMovedOutIsADeletion() {
        let plan = Self.plan(local: ["b": .folder(), "b/x.txt": F.a])
        #expect(Set(plan.deletionPaths) == Set(["a", "a/sub", "a/sub/y.txt", "a/empty", "a/link"].map { "Documents/" + $0 }))
    }
}
