import Foundation
import Testing

@testable import SyncEngine

/// `hasReadEveryLog`: what the daemon's conflict watch waits for before its first look, so
/// that a conflict hidden by a mirror away at start is not told as new when it returns.
@Suite("Whether the engine knows the mirror's conflicts yet")
struct ConflictKnowledgeTests {
    @Test func notBeforeAPassHasReadTheLogsNorWhileTheMirrorIsAway() throws {
        let scratch = Scratch()
        let (a, _) = try scratch.conflictedPair()
        #expect(a.engine.hasReadEveryLog && !a.engine.conflictVersionIDs().isEmpty)

        try a.restart()
        #expect(!a.engine.hasReadEveryLog && a.engine.conflictVersionIDs().isEmpty, "nothing read yet")
        let parked = a.mirror + ".unmounted"
        try FileManager.default.moveItem(atPath: a.mirror, toPath: parked)
        a.sync()
        #expect(!a.engine.hasReadEveryLog, "the mirror is away: its conflicts are unknown, not gone")

        try FileManager.default.moveItem(atPath: parked, toPath: a.mirror)
        a.sync()
        #expect(a.engine.hasReadEveryLog && !a.engine.conflictVersionIDs().isEmpty)
    }
}
