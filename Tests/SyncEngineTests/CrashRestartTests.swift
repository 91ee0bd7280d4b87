import Foundation
@testable import SyncEngine
import Testing

/// A device killed between writing a download to its disk and recording the new base
/// finds, on restart, a file that differs from its base but that the mirror has already.
/// It is no change of this device's: newer versions made meanwhile must not be undone.
@Suite struct CrashRestartTests {
    @Test func aDownloadCutShortByACrashDoesNotUndoNewerVersions() throws {
        let scratch = Scratch()
        let devices = try scratch.devices("a", "b")
        let (a, b) = (devices[0], devices[1])
        try a.write("doc.txt", "1")
        a.sync()
        b.sync()
        try a.write("doc.txt", "2")
        a.sync()

        let faults = FaultInjection()
        faults.crash(afterCheckpoints: 2)  // "between actions", the staged content, then the base: crash there
        b.engine.faults = faults
        b.sync()
        try #require(b.read("doc.txt") == "2", "the download reached the disk before the crash")
        try b.restart()

        try a.write("doc.txt", "3")
        a.sync()
        b.sync()
        a.sync()
        #expect(b.read("doc.txt") == "3")
        #expect(a.read("doc.txt") == "3", "the newer version stays current")
        #expect(a.engine.conflicts().isEmpty && b.engine.conflicts().isEmpty)
    }
}
