import SyncPlanning
import Testing

/// Device A renamed `Documents/p` (holding `x.txt`) to `Documents/q` and published it, while
/// device B added `p/new.txt` and published it, neither having read the other's change.
@Suite("SyncPlan: items left in a folder whose rename is published follow it")
struct StrayTests {
    typealias F = Fixture
    static let p = "Documents/p", q = "Documents/q"
    static let folder = F.record(F.id("A", 1), .folder(), path: p)
    static let file = F.record(F.id("A", 2), F.a, path: p + "/x.txt")
    /// A's rename: the new folder, the file's arrival and departure, the old folder's deletion.
    static let renamed = [
        F.record(F.id("A", 3), .folder(), time: 2_000, path: q),
        VersionRecord(id: F.id("A", 4), path: q + "/x.txt", parents: [], state: F.a, time: 2_000, movedFrom: file.path),
        F.record(F.id("A", 5), nil, parents: [file.id], time: 2_000, path: file.path),
        F.record(F.id("A", 6), nil, parents: [folder.id], time: 2_000, path: p),
    ]
    static let newFile = F.record(F.id("B", 1), F.b, time: 2_000, path: p + "/new.txt")

    static func histories(_ records: [VersionRecord]) -> [String: PathHistory] {
        var histories: [String: PathHistory] = [:]
        for record in records { histories[record.path, default: PathHistory(path: record.path)].add(record) }
        return histories
    }

    /// A's trees once its rename is published, with `records` in the mirror.
    static func renamingDevice(_ records: [VersionRecord] = renamed + [newFile]) -> SyncTrees {
        let base = [
            p: BaseEntry(version: F.id("A", 6), state: nil), file.path: BaseEntry(version: F.id("A", 5), state: nil),
            q: BaseEntry(version: F.id("A", 3), state: .folder()), q + "/x.txt": BaseEntry(version: F.id("A", 4), state: F.a),
        ]
        return SyncTrees(local: [q: .folder(), q + "/x.txt": F.a], base: base, histories: histories([folder, file] + records))
    }

    @Test func aNewItemBelowAFolderARenameDeletedLandsWhereTheRenameTookIt() {
        let plan = SyncPlan(Self.renamingDevice())
        #expect(plan.actions == [.land(Landing(version: Self.newFile, to: Self.q + "/new.txt"))], "\(plan.actions)")
    }

    /// The item is at `q/new.txt` already, unpublished: a landing that a crash cut short
    /// after it wrote the disk. It lands in place, and is not published as new beside it.
    /// A different file there is no landing: the item is fetched at its own path.
    @Test(arguments: [(F.b, true), (F.c, false)])
    func anItemFoundWhereItLandsIsTakenAsLanded(_ there: EntryState, _ landed: Bool) {
        var trees = Self.renamingDevice()
        trees.local[Self.q + "/new.txt"] = there
        let plan = SyncPlan(trees)
        let inPlace = Landing(version: Self.newFile, to: Self.q + "/new.txt", source: Landing.Source(path: Self.q + "/new.txt", state: F.b))
        let expected: [SyncAction] =
            landed
            ? [.land(inPlace)] : [.apply(version: Self.newFile, expectedLocal: nil), .publish(path: Self.q + "/new.txt", state: there, parents: [])]
        #expect(Set(plan.actions) == Set(expected), "\(plan.actions)")
    }

    /// The same in a subfolder another device deleted meanwhile (C, having seen A's rename
    /// but not B's item, deleted `q/sub`): the item landed already keeps `q/sub`, which is
    /// published again, as for any new item in a folder deleted elsewhere. Before, the
    /// folder counted as empty, and its deletion was adopted over the item.
    @Test func anItemLandedAlreadyKeepsAFolderDeletedElsewhere() {
        let sub = F.record(F.id("A", 7), .folder(), path: Self.p + "/sub")
        let subMoved = F.record(F.id("A", 8), .folder(), time: 2_000, path: Self.q + "/sub")
        let subLeft = F.record(F.id("A", 9), nil, parents: [sub.id], time: 2_000, path: sub.path)
        let subDeleted = F.record(F.id("C", 1), nil, parents: [subMoved.id], time: 3_000, path: subMoved.path)
        let newFile = F.record(F.id("B", 1), F.b, time: 2_000, path: Self.p + "/sub/new.txt")
        var trees = Self.renamingDevice(Self.renamed + [sub, subMoved, subLeft, subDeleted, newFile])
        trees.base[sub.path] = BaseEntry(version: subLeft.id, state: nil)
        trees.base[subMoved.path] = BaseEntry(version: subMoved.id, state: .folder())
        trees.local[subMoved.path] = .folder()
        trees.local[Self.q + "/sub/new.txt"] = F.b
        let plan = SyncPlan(trees)
        let inPlace = Landing(version: newFile, to: Self.q + "/sub/new.txt", source: Landing.Source(path: Self.q + "/sub/new.txt", state: F.b))
        #expect(plan.actions.contains(.land(inPlace)), "\(plan.actions)")
        #expect(plan.actions.contains(.publish(path: subMoved.path, state: .folder(), parents: [subDeleted.id])), "\(plan.actions)")
    }

    /// The moves were another device's than the deletion's: no rename of A's is told, and
    /// the item comes back where it was made, with its folder.
    @Test func movesByAnotherDeviceTellNoRename() {
        var records = Self.renamed + [Self.newFile]
        records[1] = VersionRecord(id: F.id("C", 1), path: Self.q + "/x.txt", parents: [], state: F.a, time: 2_000, movedFrom: Self.file.path)
        let plan = SyncPlan(Self.renamingDevice(records))
        #expect(plan.actions.contains(.apply(version: Self.newFile, expectedLocal: nil)), "\(plan.actions)")
    }

    /// Moved after the folder's deletion: no part of it.
    @Test func movesAfterTheDeletionTellNoRename() {
        var records = Self.renamed + [Self.newFile]
        records[1] = VersionRecord(id: F.id("A", 7), path: Self.q + "/x.txt", parents: [], state: F.a, time: 2_000, movedFrom: Self.file.path)
        let plan = SyncPlan(Self.renamingDevice(records))
        #expect(plan.actions.contains(.apply(version: Self.newFile, expectedLocal: nil)), "\(plan.actions)")
    }

    /// Moved an hour before the folder's deletion: a file moved out, and the folder deleted
    /// later (`rm -r`), is no rename.
    @Test func movesLongBeforeTheDeletionTellNoRename() {
        var records = Self.renamed + [Self.newFile]
        records[3] = F.record(F.id("A", 6), nil, parents: [Self.folder.id], time: 2_000 + 3_600_000, path: Self.p)
        let plan = SyncPlan(Self.renamingDevice(records))
        #expect(plan.actions.contains(.apply(version: Self.newFile, expectedLocal: nil)), "\(plan.actions)")
    }

    /// Moved into a folder that was there already, made an hour before: a file moved out
    /// (`mv p/x.txt q/`), then the folder deleted (`rm -r p`), is no rename.
    @Test func movesIntoAFolderThatWasThereTellNoRename() {
        var records = Self.renamed + [Self.newFile]
        records[0] = F.record(F.id("A", 3), .folder(), time: 2_000 - 3_600_000, path: Self.q)
        let plan = SyncPlan(Self.renamingDevice(records))
        #expect(plan.actions.contains(.apply(version: Self.newFile, expectedLocal: nil)), "\(plan.actions)")
    }

    /// B moved `o.txt` into `p`, and another device already moved B's file on to `q`, where
    /// A's rename took the folder: only the stray's departure is left, which is no deletion
    /// of this device's (it never had the file), so the mass-deletion guard neither counts
    /// nor holds it.
    @Test func aStrayLandedElsewhereLeavesOnlyItsDepartureWhichIsNoDeletionHere() {
        let stray = VersionRecord(id: F.id("B", 2), path: Self.p + "/new.txt", parents: [], state: F.b, time: 2_000, movedFrom: "Documents/o.txt")
        let landed = VersionRecord(id: F.id("C", 1), path: Self.q + "/new.txt", parents: [], state: F.b, time: 3_000, movedFrom: "Documents/o.txt")
        let plan = SyncPlan(Self.renamingDevice(Self.renamed + [stray, landed]))
        let departure = SyncAction.publish(path: stray.path, state: nil, parents: [stray.id])
        #expect(plan.actions.contains(departure), "\(plan.actions)")
        #expect(plan.actions.contains(.apply(version: landed, expectedLocal: nil)), "\(plan.actions)")
        #expect(plan.deletionPaths.isEmpty, "\(plan.deletionPaths)")
        #expect(plan.withoutPublishedDeletions().actions.contains(departure))
    }

    /// Something is already at the new path: the item stays where it was made.
    @Test func anItemWhosePlaceIsTakenStays() {
        var trees = Self.renamingDevice()
        trees.local[Self.q + "/new.txt"] = F.c
        let plan = SyncPlan(trees)
        #expect(plan.actions.contains(.apply(version: Self.newFile, expectedLocal: nil)), "\(plan.actions)")
    }

    /// B, meeting A's rename with its published `p/new.txt` in `p`: the file follows the
    /// folder (a relocation, published next round as moved), instead of keeping `p`.
    @Test func aPublishedItemInAFolderRenamedElsewhereFollowsIt() {
        let trees = Self.addingDevice(local: Self.newFile.state!)
        let plan = SyncPlan(trees)
        #expect(plan.actions.contains(.relocate(Relocation(from: Self.newFile.path, to: Self.q + "/new.txt", state: F.b))), "\(plan.actions)")
        #expect(!plan.actions.contains { $0.path == Self.p && $0 != .apply(version: Self.renamed[3], expectedLocal: .folder()) }, "\(plan.actions)")
    }

    /// Edited here since: published as an edit where it is (the plan does something at it).
    @Test func aPublishedItemChangedHereStays() {
        let plan = SyncPlan(Self.addingDevice(local: F.c))
        #expect(!plan.actions.contains { if case .relocate = $0 { true } else { false } }, "\(plan.actions)")
        #expect(plan.actions.contains(.publish(path: Self.newFile.path, state: F.c, parents: [Self.newFile.id])), "\(plan.actions)")
    }

    /// A published folder holding a file edited here stays, with all it holds: moved, it
    /// would not hold just what the relocation names.
    @Test func aPublishedFolderHoldingAChangeStays() {
        let made = F.record(F.id("B", 2), .folder(), time: 2_000, path: Self.p + "/made")
        let inside = F.record(F.id("B", 3), F.a, time: 2_000, path: made.path + "/f.txt")
        var trees = Self.addingDevice(local: F.b)
        for record in [made, inside] {
            trees.histories[record.path, default: PathHistory(path: record.path)].add(record)
            trees.base[record.path] = BaseEntry(version: record.id, state: record.state)
            trees.local[record.path] = record.state
        }
        #expect(SyncPlan(trees).actions.contains(.relocate(Relocation(from: made.path, to: Self.q + "/made", state: .folder(), items: ["f.txt"]))))
        trees.local[inside.path] = F.c
        let plan = SyncPlan(trees)
        #expect(!plan.actions.contains { if case .relocate(let relocation) = $0 { relocation.from == made.path } else { false } }, "\(plan.actions)")
    }

    /// B's trees: synced before A's rename, then its own `p/new.txt` published, holding `local`.
    static func addingDevice(local newState: EntryState) -> SyncTrees {
        let base = [
            p: BaseEntry(version: folder.id, state: .folder()), file.path: BaseEntry(version: file.id, state: F.a),
            newFile.path: BaseEntry(version: newFile.id, state: F.b),
        ]
        let local = [p: EntryState.folder(), file.path: F.a, newFile.path: newState]
        return SyncTrees(local: local, base: base, histories: histories([folder, file] + renamed + [newFile]))
    }
}
