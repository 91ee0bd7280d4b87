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
                Relocation(from: Self.p + "/made", to: Self.q + "/made", state: .folder(), items: ["in.txt"]),
                Relocation(from: Self.p + "/new.txt", to: Self.q + "/new.txt", state: F.b),
            ])
        #expect(!plan.actions.contains { $0.path.hasPrefix(Self.p + "/made/") }, "what the new folder holds moves with it")
        // The old folder still goes: nothing stays in it.
        #expect(plan.actions.contains(.apply(version: Self.folderLeft, expectedLocal: .folder())))
        #expect(plan.actions.firstIndex(where: { $0.path == Self.q + "/new.txt" })! < plan.actions.firstIndex(where: { $0.path == Self.p })!)
    }

    @Test func nothingMovesWhereSomethingArrives() {
        let arriving = F.record(F.id("A", 7), F.c, time: 2_000, path: Self.q + "/new.txt")
        let arrives = SyncPlan(Self.trees(new: [Self.p + "/new.txt": F.b], extra: [arriving]))
        #expect(Self.relocations(arrives).isEmpty)
        #expect(arrives.actions.contains(.publish(path: Self.p + "/new.txt", state: F.b, parents: [])))
    }

    /// A path whose last version is a deletion this device agreed on holds nothing: an
    /// item moves there, and an item made again where one was deleted moves too (the
    /// folder would otherwise come back for it). Its publish there names the deletion.
    @Test func aPlaceOnceDeletedIsFreeAtEitherEnd() {
        let made = F.record(F.id("A", 7), F.c, time: 1_500, path: Self.q + "/new.txt")
        let gone = F.record(F.id("A", 8), nil, parents: [made.id], time: 1_600, path: Self.q + "/new.txt")
        let destinationWas = Self.trees(
            new: [Self.p + "/new.txt": F.b], extra: [made, gone], base: [Self.q + "/new.txt": BaseEntry(version: gone.id, state: nil)])
        #expect(Self.relocations(SyncPlan(destinationWas)) == [Relocation(from: Self.p + "/new.txt", to: Self.q + "/new.txt", state: F.b)])

        let before = F.record(F.id("B", 1), F.c, time: 500, path: Self.p + "/again.txt")
        let deleted = F.record(F.id("B", 2), nil, parents: [before.id], time: 600, path: Self.p + "/again.txt")
        let sourceWas = Self.trees(
            new: [Self.p + "/again.txt": F.b], extra: [before, deleted], base: [Self.p + "/again.txt": BaseEntry(version: deleted.id, state: nil)])
        #expect(Self.relocations(SyncPlan(sourceWas)) == [Relocation(from: Self.p + "/again.txt", to: Self.q + "/again.txt", state: F.b)])
    }

    /// Another device made an item at the same path, which this device has not synced:
    /// the two meet there (a conflict), and neither moves.
    @Test func anItemTheMirrorHasAtItsPathDoesNotMove() {
        let elsewhere = F.record(F.id("C", 1), F.c, time: 2_500, path: Self.p + "/new.txt")
        #expect(Self.relocations(SyncPlan(Self.trees(new: [Self.p + "/new.txt": F.b], extra: [elsewhere]))).isEmpty)
    }

    /// A synced file this device moved into the folder follows it too. Its rename is
    /// published from where it was to where it is then: its old path's deletion waits for
    /// that round. Published now, the rename made `p` again on every device.
    @Test func aFileMovedHereIntoTheFolderFollowsItAndItsDepartureWaits() {
        let synced = F.record(F.id("B", 1), F.b, path: "Documents/r.txt")
        let trees = Self.trees(
            new: [Self.p + "/r.txt": F.b], extra: [synced], base: ["Documents/r.txt": BaseEntry(version: synced.id, state: F.b)])
        let plan = SyncPlan(trees)
        #expect(Self.relocations(plan) == [Relocation(from: Self.p + "/r.txt", to: Self.q + "/r.txt", state: F.b, departures: ["Documents/r.txt"])])
        #expect(!plan.actions.contains { $0.path == "Documents/r.txt" }, "\(plan.actions)")
        #expect(plan.deletionCount == 0)
    }

    /// A synced folder this device moved into the folder (`mv notes p/`) follows it, and the
    /// deletion of `notes` waits with that of `notes/n.txt`: published first, it met a file
    /// still live in it on another device, which kept the folder, empty in the end.
    @Test func aFolderMovedHereIntoTheFolderLeavesItsOldPathWithItsFiles() {
        let notes = F.record(F.id("B", 1), .folder(), path: "Documents/notes")
        let inNotes = F.record(F.id("B", 2), F.b, path: "Documents/notes/n.txt")
        let trees = Self.trees(
            new: [Self.p + "/notes": .folder(), Self.p + "/notes/n.txt": F.b], extra: [notes, inNotes],
            base: ["Documents/notes": BaseEntry(version: notes.id, state: .folder()), "Documents/notes/n.txt": BaseEntry(version: inNotes.id, state: F.b)])
        let plan = SyncPlan(trees)
        #expect(
            Self.relocations(plan) == [
                Relocation(
                    from: Self.p + "/notes", to: Self.q + "/notes", state: .folder(), items: ["n.txt"],
                    departures: ["Documents/notes/n.txt", "Documents/notes"])
            ])
        #expect(!plan.actions.contains { $0.path.hasPrefix("Documents/notes") }, "\(plan.actions)")
    }

    /// The folder the file was moved from was renamed here too (`mv notes/n.txt p/`, then
    /// `mv notes notes2`): its deletion is that rename's departure, which stays in the plan
    /// for `Landings` (another device's new item in `notes` lands in `notes2`).
    @Test func aFolderRenamedHereIsNotHeldWithAFileMovedOutOfIt() {
        let notes = F.record(F.id("B", 1), .folder(), path: "Documents/notes")
        let inNotes = F.record(F.id("B", 2), F.b, path: "Documents/notes/n.txt")
        let kept = F.record(F.id("B", 3), F.c, path: "Documents/notes/kept.txt")
        let trees = Self.trees(
            new: [Self.p + "/n.txt": F.b, "Documents/notes2": .folder(), "Documents/notes2/kept.txt": F.c], extra: [notes, inNotes, kept],
            base: [
                "Documents/notes": BaseEntry(version: notes.id, state: .folder()), "Documents/notes/n.txt": BaseEntry(version: inNotes.id, state: F.b),
                "Documents/notes/kept.txt": BaseEntry(version: kept.id, state: F.c),
            ])
        let plan = SyncPlan(trees)
        #expect(Self.relocations(plan).map(\.departures) == [["Documents/notes/n.txt"]])
        #expect(plan.actions.contains(.publish(path: "Documents/notes", state: nil, parents: [notes.id])), "\(plan.actions)")
    }

    /// A file renamed in the folder here, which the other device both renamed with the
    /// folder and edited (no rename follows: the contents differ), follows the folder as
    /// a new name: the other device's rename deleted its old one already. It does not make
    /// `p` again for its new name.
    @Test func aFileRenamedInTheFolderWhereTheOtherDeviceEditedItFollowsTheFolder() {
        let edited = VersionRecord(id: F.id("A", 7), path: Self.q + "/x.txt", parents: [F.id("A", 4)], state: F.c, time: 2_000, movedFrom: Self.p + "/x.txt")
        var trees = Self.trees(new: [Self.p + "/y.txt": F.a], extra: [edited])
        trees.local[Self.p + "/x.txt"] = nil
        let plan = SyncPlan(trees)
        #expect(Self.relocations(plan) == [Relocation(from: Self.p + "/y.txt", to: Self.q + "/y.txt", state: F.a)])
    }

    /// A new folder that cannot move (something is at its place in the new folder) stays
    /// with all it holds: its items do not move one by one, which would leave it behind
    /// empty and bring the old folder back for it.
    @Test func aNewFolderThatCannotMoveKeepsWhatItHolds() {
        let taken = F.record(F.id("A", 7), .folder(), time: 2_000, path: Self.q + "/made")
        let trees = Self.trees(new: [Self.p + "/made": .folder(), Self.p + "/made/in.txt": F.c], extra: [taken])
        #expect(Self.relocations(SyncPlan(trees)).isEmpty)
    }

    /// A new folder without its owner's write permission cannot change its `..`.
    @Test func aNewFolderItsOwnerMayNotChangeStays() {
        let trees = Self.trees(new: [Self.p + "/locked": .folder(mode: 0o555)])
        #expect(Self.relocations(SyncPlan(trees)).isEmpty)
    }

    /// Another device merged two folders into one: items of the same name from both may not
    /// both go there.
    @Test func twoItemsBoundForOnePlaceMoveOneOfThem() {
        let p2 = "Documents/p2"
        let folder2 = F.record(F.id("A", 11), .folder(), path: p2)
        let file2 = F.record(F.id("A", 12), F.b, path: p2 + "/y.txt")
        let arrival2 = VersionRecord(id: F.id("A", 13), path: Self.q + "/y.txt", parents: [], state: F.b, time: 2_000, movedFrom: p2 + "/y.txt")
        let file2Left = F.record(F.id("A", 14), nil, parents: [file2.id], time: 2_000, path: p2 + "/y.txt")
        let folder2Left = F.record(F.id("A", 15), nil, parents: [folder2.id], time: 2_000, path: p2)
        var trees = Self.trees(
            new: [Self.p + "/new.txt": F.b, p2: .folder(), p2 + "/y.txt": F.b, p2 + "/new.txt": F.c],
            extra: [folder2, file2, arrival2, file2Left, folder2Left],
            base: [p2: BaseEntry(version: folder2.id, state: .folder()), p2 + "/y.txt": BaseEntry(version: file2.id, state: F.b)])
        trees.local[p2 + "/y.txt"] = F.b
        let relocations = Self.relocations(SyncPlan(trees))
        #expect(relocations.count == 1 && relocations.first?.to == Self.q + "/new.txt", "\(relocations)")
    }

    /// This device renamed `p/x.txt` to `p/y.txt` while A renamed `p` to `q`: the two
    /// compose. The old name's deletion follows A's rename (not weighed as a deletion), the
    /// new name follows its folder, and the next round publishes the rename in `q`. Without
    /// this, every device ended with both `q/x.txt` and `q/y.txt`. (`p` held only `x.txt`:
    /// the follow alone tells that `p` went to `q`, since no file arrives there any more.)
    @Test func aFileRenamedHereFollowsItsFolderAndItsOldNameGoes() {
        var trees = Self.trees(new: [Self.p + "/y.txt": F.a])
        trees.local[Self.p + "/x.txt"] = nil
        let plan = SyncPlan(trees)
        #expect(plan.actions.contains(.follow(FollowedMove(
            move: Self.arrival, from: Self.p + "/x.txt", edit: .localRename, departure: .adoptDeletion(Self.fileLeft.id),
            expectedAtDestination: nil))))
        #expect(Self.relocations(plan) == [Relocation(from: Self.p + "/y.txt", to: Self.q + "/y.txt", state: F.a)])
        #expect(plan.deletions.isEmpty, "a rename is no deletion for the guard")

        // The next round: the folder renamed here, the base as the follow left it.
        let next = SyncTrees(
            local: [Self.q: .folder(), Self.q + "/y.txt": F.a],
            base: [
                Self.p: BaseEntry(version: Self.folderLeft.id, state: nil), Self.p + "/x.txt": BaseEntry(version: Self.fileLeft.id, state: nil),
                Self.q: BaseEntry(version: Self.madeQ.id, state: .folder()), Self.q + "/x.txt": BaseEntry(version: Self.arrival.id, state: F.a),
            ],
            histories: trees.histories)
        #expect(
            SyncPlan(next).actions == [
                .publish(path: Self.q + "/y.txt", state: F.a, parents: [], movedFrom: Self.q + "/x.txt"),
                .publish(path: Self.q + "/x.txt", state: nil, parents: [Self.arrival.id]),
            ])
    }

    @Test func aFolderMadeByAnotherDeviceThanTheOneThatDeletedTheOldIsNoRename() {
        var trees = Self.trees(new: [Self.p + "/new.txt": F.b])
        var other = PathHistory(path: Self.q)
        other.add(F.record(F.id("C", 1), .folder(), time: 2_000, path: Self.q))
        trees.histories[Self.q] = other
        #expect(Self.relocations(SyncPlan(trees)).isEmpty)
    }
}
