import SyncPlanning
import Testing

/// Device A renamed `Documents/p` (holding `x.txt`) to `Documents/q`; this device, which
/// holds `p` as synced, made new items in it meanwhile.
@Suite("SyncPlan: new items follow their folder's concurrent rename")
struct RelocationTests {
    typealias F = Fixture
    static let p = "Documents/p", q = "Documents/q"
    static let folder = F.record(F.id("A", 1), .folder(), path: p)
    static let file = F.record(F.id("A", 2), F.a, path: p + "/x.txt")
    static let madeQ = F.record(F.id("A", 3), .folder(), time: 2_000, path: q)
    static let arrival = VersionRecord(id: F.id("A", 4), path: q + "/x.txt", parents: [], state: F.a, time: 2_000, movedFrom: p + "/x.txt")
    static let fileLeft = F.record(F.id("A", 5), nil, parents: [file.id], time: 2_000, path: p + "/x.txt")
    static let folderLeft = F.record(F.id("A", 6), nil, parents: [folder.id], time: 2_000, path: p)

    /// The trees with `new` (paths below `p`) made here, and `extra` records in the mirror.
    static func trees(new: [String: EntryState], extra: [VersionRecord] = [], base extraBase: [String: BaseEntry] = [:]) -> SyncTrees {
        var histories: [String: PathHistory] = [:]
        for record in [folder, file, madeQ, arrival, fileLeft, folderLeft] + extra {
            histories[record.path, default: PathHistory(path: record.path)].add(record)
        }
        let local = [p: EntryState.folder(), p + "/x.txt": F.a].merging(new) { $1 }
        let base = [p: BaseEntry(version: folder.id, state: .folder()), p + "/x.txt": BaseEntry(version: file.id, state: F.a)].merging(extraBase) { $1 }
        return SyncTrees(local: local, base: base, histories: histories)
    }

    static func relocations(_ plan: SyncPlan) -> [Relocation] {
        plan.actions.compactMap { if case .relocate(let relocation) = $0 { relocation } else { nil } }
    }

    @Test func theTopmostNewItemsMoveAndTakeWhatTheyHoldAlong() {
        let plan = SyncPlan(Self.trees(new: [Self.p + "/new.txt": F.b, Self.p + "/made": .folder(), Self.p + "/made/in.txt": F.c]))
        #expect(
            Self.relocations(plan) == [
                Relocation(from: Self.p + "/made", to: Self.q + "/made", state: .folder()),
                Relocation(from: Self.p + "/new.txt", to: Self.q + "/new.txt", state: F.b),
            ])
        #expect(!plan.actions.contains { $0.path.hasPrefix(Self.p + "/made/") }, "what the new folder holds moves with it")
        // The old folder still goes: nothing stays in it.
        #expect(plan.actions.contains(.apply(version: Self.folderLeft, expectedLocal: .folder())))
        #expect(plan.actions.firstIndex(where: { $0.path == Self.q + "/new.txt" })! < plan.actions.firstIndex(where: { $0.path == Self.p })!)
    }

    @Test func nothingMovesWhereSomethingIsOrWasOrArrives() {
        let arriving = F.record(F.id("A", 7), F.c, time: 2_000, path: Self.q + "/new.txt")
        let arrives = SyncPlan(Self.trees(new: [Self.p + "/new.txt": F.b], extra: [arriving]))
        #expect(Self.relocations(arrives).isEmpty)
        #expect(arrives.actions.contains(.publish(path: Self.p + "/new.txt", state: F.b, parents: [])))
    }

    @Test func anItemSyncedBeforeDoesNotMove() {
        let synced = F.record(F.id("B", 1), F.b, path: Self.p + "/old.txt")
        let trees = Self.trees(
            new: [Self.p + "/old.txt": F.c], extra: [synced], base: [Self.p + "/old.txt": BaseEntry(version: synced.id, state: F.b)])
        #expect(Self.relocations(SyncPlan(trees)).isEmpty)
    }

    @Test func aFolderMadeByAnotherDeviceThanTheOneThatDeletedTheOldIsNoRename() {
        var trees = Self.trees(new: [Self.p + "/new.txt": F.b])
        var other = PathHistory(path: Self.q)
        other.add(F.record(F.id("C", 1), .folder(), time: 2_000, path: Self.q))
        trees.histories[Self.q] = other
        #expect(Self.relocations(SyncPlan(trees)).isEmpty)
    }
}
