import SyncPlanning
import Testing
@testable import SyncEngine

/// Which attributes the actions a pass could not finish leave: an unpublished change is
/// uploading, an unapplied mirror version makes the item outdated, an adoption is neither.
@Suite struct PendingActionsTests {
    static let file = EntryState.file(sha256: String(repeating: "a", count: 64), size: 3)

    static func version(_ path: String) -> VersionRecord {
        VersionRecord(id: VersionID(device: "b", sequence: 1), path: path, parents: [], state: file, time: 0)
    }

    @Test func onlyUnfinishedActionsCountEachByItsKind() {
        let actions: [SyncAction] = [
            .publish(path: "up.txt", state: Self.file, parents: []),
            .publish(path: "done.txt", state: Self.file, parents: []),
            .apply(version: Self.version("down.txt"), expectedLocal: Self.file),
            .adopt(path: "same.txt", version: VersionID(device: "b", sequence: 2), state: Self.file),
        ]
        let pending = SyncPass.pending(actions, unfinished: ["up.txt", "down.txt", "same.txt"])
        #expect(pending.publishes == ["up.txt"])
        #expect(pending.applies == ["down.txt"])
        #expect(pending.planned == ["up.txt", "done.txt", "down.txt", "same.txt"])
    }

    /// A follow moves an edit from `x` to `y`: once done, the edit waits at `y` for the next
    /// round's publish; not done, an edit made here is still unpublished at `x`.
    @Test func aFollowLeavesTheEditUploadingWhereItIs() {
        let move = VersionRecord(id: VersionID(device: "a", sequence: 2), path: "y", parents: [], state: Self.file, time: 0, movedFrom: "x")
        let edited = EntryState.file(sha256: String(repeating: "b", count: 64), size: 5)
        let followed = FollowedMove(
            move: move, from: "x", edit: .localFile(edited), departure: .adoptDeletion(VersionID(device: "a", sequence: 3)),
            expectedAtDestination: nil)
        let done = SyncPass.pending([.follow(followed)], unfinished: [])
        #expect(done.publishes == ["y"])
        #expect(done.planned == ["x", "y"])
        #expect(SyncPass.pending([.follow(followed)], unfinished: ["y"]).publishes == ["x"])
        var mirrorsEdit = followed
        mirrorsEdit.departure = .publishDeletion(replacing: [])
        #expect(SyncPass.pending([.follow(mirrorsEdit)], unfinished: ["y"]).publishes.isEmpty, "the edit is the mirror's already")
    }

    @Test func transferBytesCountFileContentOnly() {
        #expect(SyncAction.publish(path: "a", state: Self.file, parents: []).transferBytes == 3)
        #expect(SyncAction.publish(path: "a", state: nil, parents: []).transferBytes == 0)
        #expect(SyncAction.publish(path: "d", state: .folder(mode: 0o755), parents: []).transferBytes == 0)
        #expect(SyncAction.apply(version: Self.version("b"), expectedLocal: nil).transferBytes == 3)
        #expect(SyncAction.adopt(path: "c", version: VersionID(device: "b", sequence: 2), state: Self.file).transferBytes == 0)
        let move = VersionRecord(id: VersionID(device: "a", sequence: 2), path: "y", parents: [], state: Self.file, time: 0, movedFrom: "x")
        let renamed = FollowedMove(move: move, from: "x", edit: .localFile(Self.file), departure: .adoptDeletion(move.id), expectedAtDestination: nil)
        var fetched = renamed
        fetched.edit = .mirrorVersion(Self.version("x"))
        #expect(SyncAction.follow(renamed).transferBytes == 0, "a rename moves no content")
        #expect(SyncAction.follow(fetched).transferBytes == 3)
    }
}
