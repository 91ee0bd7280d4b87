import SyncPlanning
import Testing

/// This device renamed `Documents/p` (holding `x.txt`) to `Documents/q` and has not
/// published that yet; device B changed things in `p` meanwhile.
@Suite("SyncPlan: another device's new items land where this device renamed their folder")
struct LandingTests {
    typealias F = Fixture
    static let p = "Documents/p", q = "Documents/q"
    static let folder = F.record(F.id("A", 1), .folder(), path: p)
    static let file = F.record(F.id("A", 2), F.a, path: p + "/x.txt")
    /// B's new file in `p`.
    static let newFile = F.record(F.id("B", 1), F.b, time: 2_000, path: p + "/new.txt")
    /// B's rename of `p/x.txt` to `p/y.txt`.
    static let renamed = VersionRecord(id: F.id("B", 2), path: p + "/y.txt", parents: [], state: F.a, time: 2_000, movedFrom: file.path)
    static let renameLeft = F.record(F.id("B", 3), nil, parents: [file.id], time: 2_000, path: file.path)

    /// The trees with B's `records` in the mirror, and this device's rename on its disk.
    static func trees(_ records: [VersionRecord], local extraLocal: [String: EntryState] = [:]) -> SyncTrees {
        var histories: [String: PathHistory] = [:]
        for record in [folder, file] + records { histories[record.path, default: PathHistory(path: record.path)].add(record) }
        let local = [q: EntryState.folder(), q + "/x.txt": F.a].merging(extraLocal) { $1 }
        let base = [p: BaseEntry(version: folder.id, state: .folder()), file.path: BaseEntry(version: file.id, state: F.a)]
        return SyncTrees(local: local, base: base, histories: histories)
    }

    static func landings(_ plan: SyncPlan) -> [Landing] {
        plan.actions.compactMap { if case .land(let landing) = $0 { landing } else { nil } }
    }

    @Test func aNewFileLandsInTheFolderRenamedHere() {
        let plan = SyncPlan(Self.trees([Self.newFile]))
        #expect(Self.landings(plan) == [Landing(version: Self.newFile, to: Self.q + "/new.txt")])
        #expect(!plan.actions.contains { $0.path == Self.newFile.path }, "not fetched into the old folder")
        // This device's own rename is published in the same round.
        #expect(plan.actions.contains(.publish(path: Self.q + "/x.txt", state: F.a, parents: [], movedFrom: Self.file.path)))
        #expect(plan.actions.contains(.publish(path: Self.p, state: nil, parents: [Self.folder.id])))
        #expect(plan.actions.firstIndex { $0.path == Self.q + "/new.txt" }! < plan.actions.firstIndex { $0.path == Self.p }!)
        #expect(Landing(version: Self.newFile, to: Self.q + "/new.txt").movedFrom == Self.newFile.path)
    }

    /// The item is at `q/new.txt` already, unpublished: a landing that a crash cut short
    /// after it wrote the disk. It lands in place, and is not published as new beside it.
    /// A different file there is no landing: the item is fetched at its own path.
    @Test(arguments: [(F.b, true), (F.c, false)])
    func anItemFoundWhereItLandsIsTakenAsLanded(_ there: EntryState, _ landed: Bool) {
        let plan = SyncPlan(Self.trees([Self.newFile], local: [Self.q + "/new.txt": there]))
        let inPlace = Landing(version: Self.newFile, to: Self.q + "/new.txt", source: Landing.Source(path: Self.q + "/new.txt", state: F.b))
        #expect(Self.landings(plan) == (landed ? [inPlace] : []), "\(plan.actions)")
        #expect(inPlace.isLandedAlready && !Landing(version: Self.newFile, to: Self.q + "/new.txt").isLandedAlready)
        #expect(plan.actions.contains(.publish(path: Self.q + "/new.txt", state: there, parents: [])) == !landed, "\(plan.actions)")
    }

    /// B renamed `p/x.txt` to `p/y.txt`: this device renames its `q/x.txt` (the same file,
    /// moved with the folder) to `q/y.txt` instead of fetching it, and does not publish it
    /// at `q/x.txt`. Without this, every device ended with `p/y.txt` beside `q/x.txt`.
    @Test func aFileRenamedElsewhereInTheFolderIsRenamedHere() {
        let plan = SyncPlan(Self.trees([Self.renamed, Self.renameLeft]))
        #expect(
            Self.landings(plan) == [
                Landing(version: Self.renamed, to: Self.q + "/y.txt", source: Landing.Source(path: Self.q + "/x.txt", state: F.a))
            ])
        #expect(!plan.actions.contains { $0.path == Self.q + "/x.txt" }, "\(plan.actions)")
        #expect(plan.actions.contains(.adopt(path: Self.file.path, version: Self.renameLeft.id, state: nil)))
    }

    /// A file changed here since the folder's rename is renamed all the same: the edit
    /// follows the other device's rename, and goes out at the new name (as moved there).
    /// Before, both names stayed: the item fetched at `y.txt`, the edit published at `x.txt`.
    @Test func aFileChangedHereIsRenamedWithItsEdit() {
        var trees = Self.trees([Self.renamed, Self.renameLeft, Self.newFile])
        trees.local[Self.q + "/x.txt"] = F.c
        trees.local[Self.q + "/other.txt"] = F.a  // the folder is still known as renamed by this file
        trees.base[Self.p + "/other.txt"] = BaseEntry(version: F.id("A", 9), state: F.a)
        let plan = SyncPlan(trees)
        let renamedHere = Landing(version: Self.renamed, to: Self.q + "/y.txt", source: Landing.Source(path: Self.q + "/x.txt", state: F.c))
        #expect(Self.landings(plan).contains(renamedHere), "\(Self.landings(plan))")
        #expect(!plan.actions.contains { $0.path == Self.q + "/x.txt" }, "\(plan.actions)")
    }

    /// The other device changed the file as it renamed it: both changes are kept, as a
    /// conflict of a rename and an edit is not this device's to settle. The item is fetched
    /// at its new name, and the file changed here published where it is.
    @Test func aFileChangedOnBothDevicesIsNotRenamedHere() {
        let renamedAndChanged = VersionRecord(id: F.id("B", 2), path: Self.p + "/y.txt", parents: [], state: F.b, time: 2_000, movedFrom: Self.file.path)
        var trees = Self.trees([renamedAndChanged, Self.renameLeft])
        trees.local[Self.q + "/x.txt"] = F.c
        trees.local[Self.q + "/other.txt"] = F.a
        trees.base[Self.p + "/other.txt"] = BaseEntry(version: F.id("A", 9), state: F.a)
        let plan = SyncPlan(trees)
        #expect(Self.landings(plan) == [Landing(version: renamedAndChanged, to: Self.q + "/y.txt")])
        #expect(plan.actions.contains(.publish(path: Self.q + "/x.txt", state: F.c, parents: [])))
    }

    /// A new folder lands before what it holds, and what it holds lands in it.
    @Test func aNewFolderLandsBeforeWhatItHolds() {
        let sub = F.record(F.id("B", 4), .folder(), time: 2_000, path: Self.p + "/sub")
        let inside = F.record(F.id("B", 5), F.c, time: 2_000, path: Self.p + "/sub/in.txt")
        let plan = SyncPlan(Self.trees([sub, inside]))
        #expect(
            Self.landings(plan) == [Landing(version: sub, to: Self.q + "/sub"), Landing(version: inside, to: Self.q + "/sub/in.txt")])
        #expect(Landing(version: sub, to: Self.q + "/sub").movedFrom == nil, "only files name where they came from")
    }

    /// Something else at the item's place in the renamed folder: it is fetched at its own
    /// path, as without landing, and what it holds too.
    @Test func nothingLandsWhereSomethingIs() {
        let plan = SyncPlan(Self.trees([Self.newFile], local: [Self.q + "/new.txt": F.c]))
        #expect(Self.landings(plan).isEmpty)
        #expect(plan.actions.contains(.apply(version: Self.newFile, expectedLocal: nil)))

        let sub = F.record(F.id("B", 4), .folder(), time: 2_000, path: Self.p + "/sub")
        let inside = F.record(F.id("B", 5), F.c, time: 2_000, path: Self.p + "/sub/in.txt")
        let taken = SyncPlan(Self.trees([sub, inside], local: [Self.q + "/sub": F.a]))
        #expect(Self.landings(taken).isEmpty, "what a folder that cannot land holds stays with it: \(Self.landings(taken))")
        // A new folder of this device's there is the same folder (`landedBefore`): the two
        // are one, and what the other device's holds lands in it.
        let merged = SyncPlan(Self.trees([sub, inside], local: [Self.q + "/sub": .folder()]))
        #expect(
            Self.landings(merged) == [
                Landing(version: sub, to: Self.q + "/sub", source: Landing.Source(path: Self.q + "/sub", state: .folder())),
                Landing(version: inside, to: Self.q + "/sub/in.txt"),
            ], "\(merged.actions)")
    }

    /// The other device deleted or renamed the folder too: this device's rename meets that
    /// change (the old path's deletion is no publish of its own), and nothing lands.
    @Test func nothingLandsWhenTheFolderWentElsewhereToo() {
        let folderLeft = F.record(F.id("B", 6), nil, parents: [Self.folder.id], time: 2_000, path: Self.p)
        #expect(Self.landings(SyncPlan(Self.trees([Self.newFile, folderLeft]))).isEmpty)
    }

    /// An item in conflict does not land: its departure would leave the losing version
    /// current at the old path.
    @Test func anItemInConflictDoesNotLand() {
        let other = F.record(F.id("C", 1), F.c, time: 2_500, path: Self.newFile.path)
        #expect(Self.landings(SyncPlan(Self.trees([Self.newFile, other]))).isEmpty)
    }

    /// B and C made the same file at once (twins, as app defaults make them): the
    /// departure replaces both, or the twin left a head would win against it and bring
    /// `p` back.
    @Test func twinsDepartTogether() {
        let twin = F.record(F.id("C", 1), F.b, time: 1_500, path: Self.newFile.path)
        let landings = Self.landings(SyncPlan(Self.trees([Self.newFile, twin])))
        #expect(landings.map(\.version) == [Self.newFile])
        #expect(landings.first?.leaving == [Self.newFile.id, twin.id])
    }

    /// A folder lands only with everything it holds: an item in it that stays (here, in
    /// conflict) would be fetched into the folder at its old path, making it again there.
    @Test func aFolderHoldingAnItemThatStaysStaysToo() {
        let sub = F.record(F.id("B", 4), .folder(), time: 2_000, path: Self.p + "/sub")
        let inside = F.record(F.id("B", 5), F.c, time: 2_000, path: Self.p + "/sub/in.txt")
        let rival = F.record(F.id("C", 1), F.b, time: 2_500, path: inside.path)
        let other = F.record(F.id("B", 6), F.c, time: 2_000, path: Self.p + "/sub/other.txt")
        let plan = SyncPlan(Self.trees([sub, inside, rival, other, Self.newFile]))
        #expect(Self.landings(plan) == [Landing(version: Self.newFile, to: Self.q + "/new.txt")])
    }

    /// B moved `p/x.txt` out to `r/x.txt`: this device's copy, which its rename took to
    /// `q/x.txt`, moves there (in place: B published the move), and is not published at
    /// `q/x.txt` as new.
    @Test func aFileMovedOutElsewhereLandsInPlace() {
        let madeR = F.record(F.id("B", 7), .folder(), time: 2_000, path: "Documents/r")
        let movedOut = VersionRecord(id: F.id("B", 8), path: "Documents/r/x.txt", parents: [], state: F.a, time: 2_000, movedFrom: Self.file.path)
        let plan = SyncPlan(Self.trees([madeR, movedOut, Self.renameLeft]))
        let landing = Landing(version: movedOut, to: movedOut.path, source: Landing.Source(path: Self.q + "/x.txt", state: F.a))
        #expect(Self.landings(plan) == [landing])
        #expect(landing.isInPlace)
        #expect(!plan.actions.contains { $0.path == Self.q + "/x.txt" }, "\(plan.actions)")
        #expect(plan.actions.firstIndex { $0.path == madeR.path }! < plan.actions.firstIndex { $0.path == movedOut.path }!)
    }

    /// The trees with B's `records`, and another file in `p` this device's rename took to
    /// `q` unchanged (which tells the rename, whatever B did to `x.txt`).
    static func treesWithAnotherFile(_ records: [VersionRecord], local extraLocal: [String: EntryState] = [:]) -> SyncTrees {
        var trees = Self.trees(records, local: [Self.q + "/other.txt": F.b].merging(extraLocal) { $1 })
        trees.base[Self.p + "/other.txt"] = BaseEntry(version: F.id("A", 9), state: F.b)
        return trees
    }

    /// B deleted `p/x.txt`: this device's copy, which its rename took to `q/x.txt`, goes
    /// too, and is not published there (it would come back on every device).
    @Test func aFileDeletedElsewhereGoesFromTheFolderRenamedHere() {
        let deleted = F.record(F.id("B", 6), nil, parents: [Self.file.id], time: 2_000, path: Self.file.path)
        let plan = SyncPlan(Self.treesWithAnotherFile([deleted]))
        let goes = Landing(version: deleted, to: Self.q + "/x.txt", leaving: [], source: Landing.Source(path: Self.q + "/x.txt", state: F.a))
        #expect(Self.landings(plan) == [goes])
        #expect(goes.isDeletion && goes.movedFrom == nil)
        #expect(plan.actions.filter { $0.path == Self.q + "/x.txt" || $0.path == Self.file.path } == [.land(goes)], "\(plan.actions)")
        #expect(plan.deletionCount == 0, "B's deletion is not this device's to weigh: \(plan.deletionPaths)")
    }

    /// A file changed here after the rename stays, as an edit beats a deletion: it is
    /// published where it is.
    @Test func aFileChangedHereStaysThoughDeletedElsewhere() {
        let deleted = F.record(F.id("B", 6), nil, parents: [Self.file.id], time: 2_000, path: Self.file.path)
        let plan = SyncPlan(Self.treesWithAnotherFile([deleted], local: [Self.q + "/x.txt": F.c]))
        #expect(Self.landings(plan).isEmpty)
        #expect(plan.actions.contains(.publish(path: Self.q + "/x.txt", state: F.c, parents: [])))
    }

    /// B deleted `p/sub`: its files' copies here go, and so does the folder once nothing
    /// that stays is in it; a file made in it here stays, and so does the folder with it.
    @Test func aFolderDeletedElsewhereGoesOnlyWithAllItHolds() {
        let sub = F.record(F.id("A", 10), .folder(), path: Self.p + "/sub")
        let inSub = F.record(F.id("A", 11), F.c, path: Self.p + "/sub/y.txt")
        let subLeft = F.record(F.id("B", 7), nil, parents: [sub.id], time: 2_000, path: sub.path)
        let inSubLeft = F.record(F.id("B", 8), nil, parents: [inSub.id], time: 2_000, path: inSub.path)
        func plan(adding extra: [String: EntryState]) -> SyncPlan {
            var trees = Self.treesWithAnotherFile([sub, inSub, subLeft, inSubLeft], local: [Self.q + "/sub": .folder(), Self.q + "/sub/y.txt": F.c].merging(extra) { $1 })
            trees.base[sub.path] = BaseEntry(version: sub.id, state: .folder())
            trees.base[inSub.path] = BaseEntry(version: inSub.id, state: F.c)
            return SyncPlan(trees)
        }
        let whole = plan(adding: [:])
        #expect(Self.landings(whole).map(\.to) == [Self.q + "/sub/y.txt", Self.q + "/sub"])
        let sub2 = whole.actions.firstIndex { $0.path == Self.q + "/sub" }!
        #expect(whole.actions.firstIndex { $0.path == Self.q + "/sub/y.txt" }! < sub2, "the folder goes after what it holds")

        let holding = plan(adding: [Self.q + "/sub/new.txt": F.b])
        #expect(Self.landings(holding).map(\.to) == [Self.q + "/sub/y.txt"])
        #expect(holding.actions.contains(.publish(path: Self.q + "/sub", state: .folder(), parents: [])))
    }
}
