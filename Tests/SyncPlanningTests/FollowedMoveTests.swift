import SyncPlanning
import Testing

/// Device A renamed `x.txt` to `y.txt` (published as `put y.txt movedFrom x.txt` and
/// `delete x.txt`) while the file was edited, on this device or on another one.
enum Rename {
    typealias F = Fixture
    static let from = "Documents/x.txt"
    static let to = "Documents/y.txt"
    /// The version every device had before: content `a`.
    static let moved = F.record(F.id("A", 1), F.a, path: from)
    static let departure = F.record(F.id("A", 3), nil, parents: [moved.id], time: 2_000, path: from)
    static let arrival = VersionRecord(id: F.id("A", 2), path: to, parents: [], state: F.a, time: 2_000, movedFrom: from)
    static let synced = BaseEntry(version: moved.id, state: F.a)
    /// Device B's edit of the moved version, published before B saw the rename.
    static let publishedEdit = F.record(F.id("B", 1), F.b, parents: [moved.id], time: 3_000, path: from)
    static let rename = [moved, departure, arrival]
    /// Device B's deletion of the moved version, published before B saw the rename.
    static let publishedDeletion = F.record(F.id("B", 1), nil, parents: [moved.id], time: 3_000, path: from)

    static func trees(local: [String: EntryState], base: [String: BaseEntry], records: [VersionRecord]) -> SyncTrees {
        var histories: [String: PathHistory] = [:]
        for record in records { histories[record.path, default: PathHistory(path: record.path)].add(record) }
        return SyncTrees(local: local, base: base, histories: histories)
    }
}

/// One row: the trees at both paths, and the follow expected (nil: none, both files stay).
struct FollowCase: CustomTestStringConvertible, Sendable {
    var name: String
    var local: [String: EntryState]
    var base: [String: BaseEntry]
    var records: [VersionRecord]
    var expected: FollowedMove?
    var testDescription: String { name }
    var trees: SyncTrees { Rename.trees(local: local, base: base, records: records) }
}

@Suite("SyncPlan: which edits follow a concurrent rename")
struct FollowedMoveTests {
    typealias F = Fixture
    typealias R = Rename

    /// A file the scan left out but still on the disk (it became ignored, could not be
    /// read, or is back since the scan: `SyncTrees.stillOnDisk`) is no deletion made here:
    /// nothing follows the rename, which arrives as it would with the file in the scan.
    @Test func aFileStillOnTheDiskIsNoDeletionThatFollows() {
        var trees = R.trees(local: [:], base: [R.from: R.synced], records: R.rename)
        #expect(SyncPlan(trees).actions.contains { if case .follow(let followed) = $0 { followed.edit == .localDeletion } else { false } })
        trees.stillOnDisk = [R.from]
        let plan = SyncPlan(trees)
        #expect(!plan.actions.contains { if case .follow = $0 { true } else { false } }, "\(plan.actions)")
        #expect(plan.followedDeletions.isEmpty)
    }

    static let follows: [FollowCase] = [
        FollowCase(
            name: "an edit made here of the moved version", local: [R.from: F.b], base: [R.from: R.synced], records: R.rename,
            expected: FollowedMove(
                move: R.arrival, from: R.from, edit: .localFile(F.b), departure: .adoptDeletion(R.departure.id), expectedAtDestination: nil)),
        FollowCase(
            name: "the mirror's edit, synced here", local: [R.from: F.b],
            base: [R.from: BaseEntry(version: R.publishedEdit.id, state: F.b)], records: R.rename + [R.publishedEdit],
            expected: FollowedMove(
                move: R.arrival, from: R.from, edit: .localFile(F.b),
                departure: .publishDeletion(replacing: [R.departure.id, R.publishedEdit.id]), expectedAtDestination: nil)),
        FollowCase(
            name: "the mirror's edit, on the device that renamed", local: [R.to: F.a],
            base: [R.from: BaseEntry(version: R.departure.id, state: nil), R.to: BaseEntry(version: R.arrival.id, state: F.a)],
            records: R.rename + [R.publishedEdit],
            expected: FollowedMove(
                move: R.arrival, from: R.from, edit: .mirrorVersion(R.publishedEdit),
                departure: .publishDeletion(replacing: [R.departure.id, R.publishedEdit.id]), expectedAtDestination: F.a)),
        FollowCase(
            name: "the mirror's edit, on a device that synced both files", local: [R.from: F.b, R.to: F.a],
            base: [R.from: BaseEntry(version: R.publishedEdit.id, state: F.b), R.to: BaseEntry(version: R.arrival.id, state: F.a)],
            records: R.rename + [R.publishedEdit],
            expected: FollowedMove(
                move: R.arrival, from: R.from, edit: .localFile(F.b),
                departure: .publishDeletion(replacing: [R.departure.id, R.publishedEdit.id]), expectedAtDestination: F.a)),
        FollowCase(
            name: "a deletion made here of the moved version", local: [:], base: [R.from: R.synced], records: R.rename,
            expected: FollowedMove(
                move: R.arrival, from: R.from, edit: .localDeletion, departure: .adoptDeletion(R.departure.id), expectedAtDestination: nil)),
    ]

    static let staysPut: [FollowCase] = {
        let otherVersion = F.id("C", 7)
        let changedOnRename = VersionRecord(id: R.arrival.id, path: R.to, parents: [], state: F.c, time: 2_000, movedFrom: R.from)
        let renamedElsewhere = VersionRecord(id: F.id("C", 2), path: R.to, parents: [], state: F.a, time: 2_000, movedFrom: R.from)
        let editOnC = F.record(F.id("C", 1), F.c, parents: [R.moved.id], time: 3_000, path: R.from)
        let earlier = F.record(F.id("A", 0), F.c, path: R.from)
        let winnerOfAConflict = F.record(F.id("A", 1), F.a, parents: [earlier.id], path: R.from)
        let loserOfAConflict = F.record(F.id("B", 1), F.b, parents: [earlier.id], time: 500, path: R.from)
        let followed = F.record(F.id("B", 2), nil, parents: [R.departure.id, R.publishedEdit.id], time: 4_000, path: R.from)
        return [
            FollowCase(
                name: "a deletion made here, published before the rename was seen", local: [:],
                base: [R.from: BaseEntry(version: R.publishedDeletion.id, state: nil)], records: R.rename + [R.publishedDeletion]),
            FollowCase(
                name: "the device that renamed: its base is the rename's own deletion", local: [:],
                base: [R.from: BaseEntry(version: R.departure.id, state: nil)], records: R.rename),
            FollowCase(
                name: "renamed here too: the file is at another new path", local: ["Documents/z.txt": F.a], base: [R.from: R.synced],
                records: R.rename),
            FollowCase(
                name: "the base here is not the moved version", local: [R.from: F.b],
                base: [R.from: BaseEntry(version: otherVersion, state: F.a)], records: R.rename),
            FollowCase(
                name: "the rename changed the content", local: [R.from: F.b], base: [R.from: R.synced],
                records: [R.moved, R.departure, changedOnRename]),
            FollowCase(
                name: "something new is at the new path here", local: [R.from: F.b, R.to: F.c], base: [R.from: R.synced],
                records: R.rename),
            FollowCase(
                name: "the old path's current version is another device's edit", local: [R.from: F.b], base: [R.from: R.synced],
                records: R.rename + [editOnC]),
            FollowCase(
                name: "the deletion and the arrival are not one device's rename", local: [R.from: F.b], base: [R.from: R.synced],
                records: [R.moved, R.departure, renamedElsewhere]),
            FollowCase(
                name: "two edits of the moved version: a conflict", local: [R.from: F.b],
                base: [R.from: BaseEntry(version: R.publishedEdit.id, state: F.b)], records: R.rename + [R.publishedEdit, editOnC]),
            FollowCase(
                name: "the mirror's edit is a conflict's loser, not an edit of the moved version", local: [R.from: F.b],
                base: [R.from: BaseEntry(version: loserOfAConflict.id, state: F.b)],
                records: [earlier, winnerOfAConflict, loserOfAConflict, R.departure, R.arrival]),
            FollowCase(
                name: "the mirror's edit changed here meanwhile", local: [R.from: F.c],
                base: [R.from: BaseEntry(version: R.publishedEdit.id, state: F.b)], records: R.rename + [R.publishedEdit]),
            FollowCase(
                name: "already followed elsewhere: a deletion replaced the edit", local: [R.to: F.a],
                base: [R.from: BaseEntry(version: R.departure.id, state: nil), R.to: BaseEntry(version: R.arrival.id, state: F.a)],
                records: R.rename + [R.publishedEdit, followed]),
        ]
    }()

    @Test(arguments: follows)
    func theEditFollowsTheRename(_ row: FollowCase) throws {
        let expected = try #require(row.expected)
        #expect(SyncPlan(row.trees).actions == [.follow(expected)], "the follow replaces both paths' actions")
    }

    @Test(arguments: staysPut)
    func nothingFollowsWhenAPreconditionFails(_ row: FollowCase) {
        let plan = SyncPlan(row.trees)
        #expect(!plan.actions.contains { if case .follow = $0 { true } else { false } }, "\(plan.actions)")
    }

    /// After the follow, the base says the new path holds the renamed version, so the edit
    /// there is an ordinary local change, published as the rename's child.
    @Test func theRoundAfterAnEditFollowedPublishesItAsTheRenamesChild() {
        let trees = R.trees(
            local: [R.to: F.b], base: [R.from: BaseEntry(version: R.departure.id, state: nil), R.to: BaseEntry(version: R.arrival.id, state: F.a)],
            records: R.rename)
        #expect(SyncPlan(trees).actions == [.publish(path: R.to, state: F.b, parents: [R.arrival.id])])
    }

    @Test func theRoundAfterTheMirrorsEditFollowedPublishesItAsTheRenamesChild() {
        let left = F.record(F.id("A", 4), nil, parents: [R.departure.id, R.publishedEdit.id], time: 4_000, path: R.from)
        let trees = R.trees(
            local: [R.to: F.b], base: [R.from: BaseEntry(version: left.id, state: nil), R.to: BaseEntry(version: R.arrival.id, state: F.a)],
            records: R.rename + [R.publishedEdit, left])
        #expect(SyncPlan(trees).actions == [.publish(path: R.to, state: F.b, parents: [R.arrival.id])])
    }

    /// A folder moved with an edited file in it: the new folder is made before the edit
    /// goes in, and the old one goes after it left (empty by then).
    @Test func aFollowGoesAfterTheNewFolderAndBeforeTheOldOneIsRemoved() {
        let (oldFolder, newFolder) = ("Documents/a", "Documents/b")
        let folder = F.record(F.id("A", 1), .folder(), path: oldFolder)
        let file = F.record(F.id("A", 2), F.a, path: oldFolder + "/x.txt")
        let made = F.record(F.id("A", 3), .folder(), time: 2_000, path: newFolder)
        let arrival = VersionRecord(id: F.id("A", 4), path: newFolder + "/x.txt", parents: [], state: F.a, time: 2_000, movedFrom: file.path)
        let fileLeft = F.record(F.id("A", 5), nil, parents: [file.id], time: 2_000, path: file.path)
        let folderLeft = F.record(F.id("A", 6), nil, parents: [folder.id], time: 2_000, path: oldFolder)
        let trees = R.trees(
            local: [oldFolder: .folder(), file.path: F.b],
            base: [oldFolder: BaseEntry(version: folder.id, state: .folder()), file.path: BaseEntry(version: file.id, state: F.a)],
            records: [folder, file, made, arrival, fileLeft, folderLeft])
        let actions = SyncPlan(trees).actions
        #expect(actions.map(\.path) == [newFolder, arrival.path, oldFolder])
        #expect(actions.dropFirst().first.map { if case .follow = $0 { true } else { false } } == true)
    }
}
