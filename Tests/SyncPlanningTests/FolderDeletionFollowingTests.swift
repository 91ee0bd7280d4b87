import SyncPlanning
import Testing

/// This device deleted folder `Documents/p` (holding `x.txt` and the folder `sub`), which
/// device A renamed to `Documents/q` meanwhile.
@Suite("SyncPlan: a folder deleted here while renamed elsewhere stays deleted")
struct FolderDeletionFollowingTests {
    typealias F = Fixture
    static let p = "Documents/p", q = "Documents/q"
    static let folder = F.record(F.id("A", 1), .folder(), path: p)
    static let sub = F.record(F.id("A", 2), .folder(), path: p + "/sub")
    static let file = F.record(F.id("A", 3), F.a, path: p + "/x.txt")
    static let madeQ = F.record(F.id("A", 4), .folder(), time: 2_000, path: q)
    static let arrival = VersionRecord(id: F.id("A", 6), path: q + "/x.txt", parents: [], state: F.a, time: 2_000, movedFrom: p + "/x.txt")
    static let gone = [
        F.record(F.id("A", 7), nil, parents: [file.id], time: 2_000, path: p + "/x.txt"),
        F.record(F.id("A", 8), nil, parents: [sub.id], time: 2_000, path: p + "/sub"),
        F.record(F.id("A", 9), nil, parents: [folder.id], time: 2_000, path: p),
    ]

    static func trees(subMadeBy device: String) -> SyncTrees {
        let madeSub = F.record(F.id(device, 5), .folder(), time: 2_000, path: q + "/sub")
        var histories: [String: PathHistory] = [:]
        for record in [folder, sub, file, madeQ, madeSub, arrival] + gone {
            histories[record.path, default: PathHistory(path: record.path)].add(record)
        }
        let base = [
            p: BaseEntry(version: folder.id, state: .folder()), p + "/sub": BaseEntry(version: sub.id, state: .folder()),
            p + "/x.txt": BaseEntry(version: file.id, state: F.a),
        ]
        return SyncTrees(local: [:], base: base, histories: histories)
    }

    /// This device also moved `p/sub/b.txt` out to `r/b.txt` before deleting `p`: a rename
    /// that follows (`.localRename`), in `sub`, below the deletion of `x.txt`. Held, the
    /// adoption of `q/sub` waits with it and with the deletion: run alone, it put `q/sub`
    /// in the base without the disk, and its plain deletion went out a round before the
    /// rename's departure, so that A could publish `q/sub` again, empty.
    @Test func aRenameMadeHereInASubfolderWaitsWithTheDeletionAbove() {
        var trees = Self.trees(subMadeBy: "A")
        let inSub = F.record(F.id("A", 10), F.b, path: Self.p + "/sub/b.txt")
        let moved = VersionRecord(id: F.id("A", 11), path: Self.q + "/sub/b.txt", parents: [], state: F.b, time: 2_000, movedFrom: inSub.path)
        let left = F.record(F.id("A", 12), nil, parents: [inSub.id], time: 2_000, path: inSub.path)
        for record in [inSub, moved, left] { trees.histories[record.path, default: PathHistory(path: record.path)].add(record) }
        trees.base[inSub.path] = BaseEntry(version: inSub.id, state: F.b)
        trees.local = ["Documents/r": .folder(), "Documents/r/b.txt": F.b]
        let plan = SyncPlan(trees)
        #expect(plan.actions.contains { $0.isLocalRename }, "\(plan.actions)")
        let held = plan.withoutPublishedDeletions().actions.map(\.path)
        #expect(Set(held).isDisjoint(with: [Self.q, Self.q + "/sub", Self.q + "/sub/b.txt", Self.q + "/x.txt"]), "\(held)")
    }

    /// The folder is still on the disk with what it holds, though the scan left it out (it
    /// became ignored, it could not be read, it is back since the scan: the engine looks
    /// at each path a deletion would follow from, `SyncTrees.stillOnDisk`): no deletion of
    /// this device's, so nothing follows A's rename, and nothing counts as deleted here.
    @Test func aFolderStillOnTheDiskIsNoDeletionThatFollows() {
        var trees = Self.trees(subMadeBy: "A")
        trees.stillOnDisk = [Self.p, Self.p + "/sub", Self.p + "/x.txt"]
        let plan = SyncPlan(trees)
        #expect(!plan.actions.contains { if case .follow = $0 { true } else { false } }, "\(plan.actions)")
        #expect(plan.followedDeletions.isEmpty, "\(plan.followedDeletions)")
    }

    @Test func theRenamedFoldersAreAdoptedNotMadeAndCountAsDeletionsHere() {
        let plan = SyncPlan(Self.trees(subMadeBy: "A"))
        #expect(plan.actions.contains(.adopt(path: Self.q, version: Self.madeQ.id, state: .folder())))
        #expect(plan.actions.contains { if case .adopt(Self.q + "/sub", _, _) = $0 { true } else { false } })
        #expect(plan.actions.contains { if case .follow(let followed) = $0 { followed.edit == .localDeletion } else { false } })
        #expect(plan.followedDeletions == [Self.q: Self.p, Self.q + "/sub": Self.p + "/sub", Self.q + "/x.txt": Self.p + "/x.txt"])
        #expect(Set(plan.deletionPaths) == [Self.p, Self.p + "/sub", Self.p + "/x.txt"])
        // Held, they leave both paths as they are: the old folder's base tells next time.
        let held = plan.withoutPublishedDeletions().actions.map(\.path)
        #expect(Set(held).isDisjoint(with: [Self.p, Self.p + "/sub", Self.p + "/x.txt", Self.q, Self.q + "/sub", Self.q + "/x.txt"]), "\(held)")
    }

    /// A folder another device made at the place the rename maps to is that device's, not
    /// the item deleted here: it arrives.
    @Test func aFolderMadeThereByAnotherDeviceArrives() {
        let plan = SyncPlan(Self.trees(subMadeBy: "C"))
        #expect(plan.actions.contains { if case .apply(let version, nil) = $0 { version.path == Self.q + "/sub" } else { false } })
        #expect(plan.followedDeletions[Self.q + "/sub"] == nil)
    }
}
