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

    @Test func transferBytesCountFileContentOnly() {
        #expect(SyncAction.publish(path: "a", state: Self.file, parents: []).transferBytes == 3)
        #expect(SyncAction.publish(path: "a", state: nil, parents: []).transferBytes == 0)
        #expect(SyncAction.publish(path: "d", state: .folder(mode: 0o755), parents: []).transferBytes == 0)
        #expect(SyncAction.apply(version: Self.version("b"), expectedLocal: nil).transferBytes == 3)
        #expect(SyncAction.adopt(path: "c", version: VersionID(device: "b", sequence: 2), state: Self.file).transferBytes == 0)
    }
}
